package corpus.matrix;

import java.util.ArrayList;
import java.util.List;

/** Operations on rectangular int matrices stored as int[rows][cols]. */
public final class Matrix {

    private Matrix() {
    }

    public static int rows(int[][] m) {
        return m.length;
    }

    public static int cols(int[][] m) {
        return m.length == 0 ? 0 : m[0].length;
    }

    /** Throws IllegalArgumentException unless every row has the same length. */
    public static void requireRectangular(int[][] m) {
        for (int i = 1; i < m.length; i++) {
            if (m[i].length != m[0].length) {
                throw new IllegalArgumentException("ragged row " + i);
            }
        }
    }

    public static int[][] identity(int n) {
        int[][] id = new int[n][n];
        for (int i = 0; i < n; i++) {
            id[i][i] = 1;
        }
        return id;
    }

    public static int[][] add(int[][] a, int[][] b) {
        if (rows(a) != rows(b) || cols(a) != cols(b)) {
            throw new IllegalArgumentException("shape mismatch");
        }
        int[][] out = new int[rows(a)][cols(a)];
        for (int i = 0; i < rows(a); i++) {
            for (int j = 0; j < cols(a); j++) {
                out[i][j] = a[i][j] + b[i][j];
            }
        }
        return out;
    }

    public static int[][] subtract(int[][] a, int[][] b) {
        if (rows(a) != rows(b) || cols(a) != cols(b)) {
            throw new IllegalArgumentException("shape mismatch");
        }
        int[][] out = new int[rows(a)][cols(a)];
        for (int i = 0; i < rows(a); i++) {
            for (int j = 0; j < cols(a); j++) {
                out[i][j] = a[i][j] - b[i][j];
            }
        }
        return out;
    }

    public static int[][] multiply(int[][] a, int[][] b) {
        if (cols(a) != rows(b)) {
            throw new IllegalArgumentException("cannot multiply " + rows(a) + "x" + cols(a)
                    + " by " + rows(b) + "x" + cols(b));
        }
        int n = rows(a);
        int m = cols(b);
        int inner = cols(a);
        int[][] out = new int[n][m];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < m; j++) {
                int sum = 0;
                for (int k = 0; k < inner; k++) {
                    sum += a[i][k] * b[k][j];
                }
                out[i][j] = sum;
            }
        }
        return out;
    }

    public static int[][] scale(int[][] a, int factor) {
        int[][] out = new int[rows(a)][cols(a)];
        for (int i = 0; i < rows(a); i++) {
            for (int j = 0; j < cols(a); j++) {
                out[i][j] = a[i][j] * factor;
            }
        }
        return out;
    }

    public static int[][] transpose(int[][] a) {
        int[][] out = new int[cols(a)][rows(a)];
        for (int i = 0; i < rows(a); i++) {
            for (int j = 0; j < cols(a); j++) {
                out[j][i] = a[i][j];
            }
        }
        return out;
    }

    /** Square matrix raised to a non-negative power by repeated squaring. */
    public static int[][] power(int[][] a, int exponent) {
        if (rows(a) != cols(a)) {
            throw new IllegalArgumentException("not square");
        }
        if (exponent < 0) {
            throw new IllegalArgumentException("negative exponent");
        }
        int[][] result = identity(rows(a));
        int[][] base = a;
        int e = exponent;
        while (e > 0) {
            if ((e & 1) == 1) {
                result = multiply(result, base);
            }
            base = multiply(base, base);
            e >>= 1;
        }
        return result;
    }

    public static long trace(int[][] a) {
        long sum = 0;
        int n = Math.min(rows(a), cols(a));
        for (int i = 0; i < n; i++) {
            sum += a[i][i];
        }
        return sum;
    }

    /** Determinant of a square matrix by cofactor expansion along the first row. */
    public static long determinant(int[][] a) {
        int n = rows(a);
        if (n != cols(a)) {
            throw new IllegalArgumentException("not square");
        }
        if (n == 0) {
            return 1;
        }
        if (n == 1) {
            return a[0][0];
        }
        if (n == 2) {
            return (long) a[0][0] * a[1][1] - (long) a[0][1] * a[1][0];
        }
        long det = 0;
        for (int col = 0; col < n; col++) {
            long term = a[0][col] * determinant(minor(a, 0, col));
            det += (col % 2 == 0) ? term : -term;
        }
        return det;
    }

    /** The matrix without row r and column c. */
    public static int[][] minor(int[][] a, int r, int c) {
        int n = rows(a);
        int m = cols(a);
        int[][] out = new int[n - 1][m - 1];
        int oi = 0;
        for (int i = 0; i < n; i++) {
            if (i == r) {
                continue;
            }
            int oj = 0;
            for (int j = 0; j < m; j++) {
                if (j != c) {
                    out[oi][oj++] = a[i][j];
                }
            }
            oi++;
        }
        return out;
    }

    /** Rotates a matrix 90 degrees clockwise. */
    public static int[][] rotateClockwise(int[][] a) {
        int n = rows(a);
        int m = cols(a);
        int[][] out = new int[m][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < m; j++) {
                out[j][n - 1 - i] = a[i][j];
            }
        }
        return out;
    }

    /** Elements in clockwise spiral order starting at the top-left corner. */
    public static List<Integer> spiral(int[][] a) {
        List<Integer> out = new ArrayList<>();
        int top = 0;
        int bottom = rows(a) - 1;
        int left = 0;
        int right = cols(a) - 1;
        while (top <= bottom && left <= right) {
            for (int j = left; j <= right; j++) {
                out.add(a[top][j]);
            }
            top++;
            for (int i = top; i <= bottom; i++) {
                out.add(a[i][right]);
            }
            right--;
            if (top <= bottom) {
                for (int j = right; j >= left; j--) {
                    out.add(a[bottom][j]);
                }
                bottom--;
            }
            if (left <= right) {
                for (int i = bottom; i >= top; i--) {
                    out.add(a[i][left]);
                }
                left++;
            }
        }
        return out;
    }

    public static boolean isSymmetric(int[][] a) {
        if (rows(a) != cols(a)) {
            return false;
        }
        for (int i = 0; i < rows(a); i++) {
            for (int j = i + 1; j < cols(a); j++) {
                if (a[i][j] != a[j][i]) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Sum of each row. */
    public static long[] rowSums(int[][] a) {
        long[] sums = new long[rows(a)];
        for (int i = 0; i < rows(a); i++) {
            for (int j = 0; j < a[i].length; j++) {
                sums[i] += a[i][j];
            }
        }
        return sums;
    }

    /** Rows joined by newlines, cells by single spaces. */
    public static String format(int[][] a) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < rows(a); i++) {
            if (i > 0) {
                sb.append('\n');
            }
            for (int j = 0; j < a[i].length; j++) {
                if (j > 0) {
                    sb.append(' ');
                }
                sb.append(a[i][j]);
            }
        }
        return sb.toString();
    }
}
