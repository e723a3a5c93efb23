package corpus.matrix;

/** Shared matrices for the Matrix tests. */
final class Fixtures {

    private Fixtures() {
    }

    /** 2x3: [[1 2 3] [4 5 6]]. */
    static int[][] twoByThree() {
        return new int[][]{{1, 2, 3}, {4, 5, 6}};
    }

    /** 3x3 with rows 1..9. */
    static int[][] counting3() {
        int[][] m = new int[3][3];
        int v = 1;
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                m[i][j] = v++;
            }
        }
        return m;
    }

    static int[][] fib() {
        return new int[][]{{1, 1}, {1, 0}};
    }
}
