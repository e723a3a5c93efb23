package corpus.matrix;

import static org.junit.Assert.*;

import java.util.Arrays;
import java.util.Collections;
import org.junit.Test;

public class MatrixTest {

    @Test
    public void shapeAndIdentity() {
        assertEquals(2, Matrix.rows(Fixtures.twoByThree()));
        assertEquals(3, Matrix.cols(Fixtures.twoByThree()));
        assertEquals(0, Matrix.cols(new int[0][0]));
        assertArrayEquals(new int[][]{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, Matrix.identity(3));
    }

    @Test
    public void raggedRejected() {
        Matrix.requireRectangular(Fixtures.twoByThree());
        Matrix.requireRectangular(new int[0][]);
        try {
            Matrix.requireRectangular(new int[][]{{1, 2}, {3, 4}, {5}});
            fail();
        } catch (IllegalArgumentException expected) {
            assertEquals("ragged row 2", expected.getMessage());
        }
    }

    @Test
    public void addSubtractScale() {
        int[][] a = Fixtures.twoByThree();
        assertArrayEquals(new int[][]{{2, 4, 6}, {8, 10, 12}}, Matrix.add(a, a));
        assertArrayEquals(new int[][]{{0, 1, 2}, {3, 4, 5}},
                Matrix.subtract(a, new int[][]{{1, 1, 1}, {1, 1, 1}}));
        assertArrayEquals(new int[][]{{-3, -6, -9}, {-12, -15, -18}}, Matrix.scale(a, -3));
    }

    @Test
    public void shapeMismatchRejected() {
        int[][][] others = {Matrix.identity(2), new int[][]{{1, 2}, {3, 4}}, new int[][]{{1, 2, 3}}};
        for (int[][] b : others) {
            try {
                Matrix.add(Fixtures.twoByThree(), b);
                fail();
            } catch (IllegalArgumentException expected) {
                assertEquals("shape mismatch", expected.getMessage());
            }
            try {
                Matrix.subtract(Fixtures.twoByThree(), b);
                fail();
            } catch (IllegalArgumentException expected) {
                assertEquals("shape mismatch", expected.getMessage());
            }
        }
    }

    @Test
    public void multiplyAndTranspose() {
        int[][] a = Fixtures.twoByThree();
        int[][] t = Matrix.transpose(a);
        assertArrayEquals(new int[][]{{1, 4}, {2, 5}, {3, 6}}, t);
        assertArrayEquals(new int[][]{{14, 32}, {32, 77}}, Matrix.multiply(a, t));
        assertArrayEquals(new int[][]{{17, 22, 27}, {22, 29, 36}, {27, 36, 45}}, Matrix.multiply(t, a));
        try {
            Matrix.multiply(a, a);
            fail();
        } catch (IllegalArgumentException expected) {
            assertEquals("cannot multiply 2x3 by 2x3", expected.getMessage());
        }
    }

    @Test
    public void powers() {
        assertArrayEquals(Matrix.identity(2), Matrix.power(Fixtures.fib(), 0));
        assertArrayEquals(Fixtures.fib(), Matrix.power(Fixtures.fib(), 1));
        assertArrayEquals(new int[][]{{89, 55}, {55, 34}}, Matrix.power(Fixtures.fib(), 10));
        assertArrayEquals(new int[][]{{13, 8}, {8, 5}}, Matrix.power(Fixtures.fib(), 6));
        try {
            Matrix.power(Fixtures.fib(), -1);
            fail();
        } catch (IllegalArgumentException expected) {
            assertEquals("negative exponent", expected.getMessage());
        }
        try {
            Matrix.power(Fixtures.twoByThree(), 2);
            fail();
        } catch (IllegalArgumentException expected) {
            assertEquals("not square", expected.getMessage());
        }
    }

    @Test
    public void traceAndDeterminant() {
        assertEquals(15L, Matrix.trace(Fixtures.counting3()));
        assertEquals(6L, Matrix.trace(Fixtures.twoByThree()));
        assertEquals(0L, Matrix.determinant(Fixtures.counting3()));
        assertEquals(-1L, Matrix.determinant(Fixtures.fib()));
        assertEquals(1L, Matrix.determinant(new int[0][0]));
        assertEquals(7L, Matrix.determinant(new int[][]{{7}}));
        assertEquals(-306L, Matrix.determinant(new int[][]{{6, 1, 1}, {4, -2, 5}, {2, 8, 7}}));
        assertEquals(24L, Matrix.determinant(new int[][]{{2, 0, 0, 0}, {0, 3, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 4}}));
    }

    @Test
    public void minorAndRotation() {
        assertArrayEquals(new int[][]{{1, 3}, {7, 9}}, Matrix.minor(Fixtures.counting3(), 1, 1));
        assertArrayEquals(new int[][]{{5, 6}, {8, 9}}, Matrix.minor(Fixtures.counting3(), 0, 0));
        assertArrayEquals(new int[][]{{4, 1}, {5, 2}, {6, 3}}, Matrix.rotateClockwise(Fixtures.twoByThree()));
    }

    @Test
    public void spiralOrder() {
        assertEquals(Arrays.asList(1, 2, 3, 6, 9, 8, 7, 4, 5), Matrix.spiral(Fixtures.counting3()));
        assertEquals(Arrays.asList(1, 2, 3, 6, 5, 4), Matrix.spiral(Fixtures.twoByThree()));
        assertEquals(Arrays.asList(1, 4, 5, 6, 3, 2), Matrix.spiral(Matrix.transpose(Fixtures.twoByThree())));
        assertEquals(Arrays.asList(1, 2, 3), Matrix.spiral(new int[][]{{1}, {2}, {3}}));
        assertEquals(Collections.emptyList(), Matrix.spiral(new int[0][0]));
    }

    @Test
    public void symmetryRowSumsFormat() {
        assertTrue(Matrix.isSymmetric(Matrix.identity(3)));
        assertTrue(Matrix.isSymmetric(new int[][]{{1, 2}, {2, 1}}));
        assertFalse(Matrix.isSymmetric(Fixtures.counting3()));
        assertFalse(Matrix.isSymmetric(new int[][]{{1, 2, 3}, {2, 1, 4}, {3, 5, 1}}));
        assertFalse(Matrix.isSymmetric(Fixtures.twoByThree()));
        assertArrayEquals(new long[]{6, 15}, Matrix.rowSums(Fixtures.twoByThree()));
        assertEquals("1 2 3\n4 5 6", Matrix.format(Fixtures.twoByThree()));
        assertEquals("", Matrix.format(new int[0][0]));
    }
}
