package corpus.binsearch;

import static org.junit.Assert.*;

import org.junit.Test;

public class BinarySearchTest {

    private static final int[] DATA = {1, 3, 3, 3, 7, 9, 12};

    @Test
    public void indexOfFindsEveryDistinctElement() {
        int[] a = {2, 4, 6, 8, 10};
        for (int i = 0; i < a.length; i++) {
            assertEquals(i, BinarySearch.indexOf(a, a[i]));
        }
    }

    @Test
    public void indexOfMissingAndEmpty() {
        int[] a = {2, 4, 6, 8, 10};
        assertEquals(-1, BinarySearch.indexOf(a, 1));
        assertEquals(-1, BinarySearch.indexOf(a, 5));
        assertEquals(-1, BinarySearch.indexOf(a, 11));
        assertEquals(-1, BinarySearch.indexOf(new int[0], 3));
        assertEquals(0, BinarySearch.indexOf(new int[]{7}, 7));
    }

    @Test
    public void lowerAndUpperBounds() {
        assertEquals(0, BinarySearch.lowerBound(DATA, 0));
        assertEquals(1, BinarySearch.lowerBound(DATA, 3));
        assertEquals(4, BinarySearch.upperBound(DATA, 3));
        assertEquals(4, BinarySearch.lowerBound(DATA, 4));
        assertEquals(7, BinarySearch.lowerBound(DATA, 13));
        assertEquals(7, BinarySearch.upperBound(DATA, 12));
        assertEquals(6, BinarySearch.lowerBound(DATA, 12));
        assertEquals(0, BinarySearch.upperBound(new int[0], 5));
    }

    @Test
    public void countOccurrences() {
        assertEquals(3, BinarySearch.count(DATA, 3));
        assertEquals(1, BinarySearch.count(DATA, 1));
        assertEquals(1, BinarySearch.count(DATA, 12));
        assertEquals(0, BinarySearch.count(DATA, 5));
    }

    @Test
    public void integerSquareRoot() {
        assertEquals(0, BinarySearch.isqrt(0));
        assertEquals(1, BinarySearch.isqrt(1));
        assertEquals(1, BinarySearch.isqrt(3));
        assertEquals(2, BinarySearch.isqrt(4));
        assertEquals(3, BinarySearch.isqrt(15));
        assertEquals(4, BinarySearch.isqrt(16));
        assertEquals(46340, BinarySearch.isqrt(Integer.MAX_VALUE));
    }

    @Test
    public void sortedness() {
        assertTrue(BinarySearch.isSorted(DATA));
        assertTrue(BinarySearch.isSorted(new int[0]));
        assertTrue(BinarySearch.isSorted(new int[]{5}));
        assertFalse(BinarySearch.isSorted(new int[]{1, 2, 4, 3}));
        assertFalse(BinarySearch.isSorted(new int[]{2, 1}));
    }
}
