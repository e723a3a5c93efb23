package corpus.mergesort;

import static org.junit.Assert.*;

import org.junit.Test;

public class MergeSortTest {

    @Test
    public void sortsMixedValues() {
        assertArrayEquals(new int[]{-4, 0, 1, 2, 2, 5, 9},
                MergeSort.sorted(new int[]{5, 2, -4, 9, 0, 2, 1}));
    }

    @Test
    public void sortsEdgeSizes() {
        assertArrayEquals(new int[0], MergeSort.sorted(new int[0]));
        assertArrayEquals(new int[]{3}, MergeSort.sorted(new int[]{3}));
        assertArrayEquals(new int[]{1, 2}, MergeSort.sorted(new int[]{2, 1}));
        assertArrayEquals(new int[]{1, 2, 3}, MergeSort.sorted(new int[]{3, 2, 1}));
    }

    @Test
    public void leavesInputUntouched() {
        int[] in = {3, 1, 2};
        MergeSort.sorted(in);
        assertArrayEquals(new int[]{3, 1, 2}, in);
    }

    @Test
    public void mergesSortedArrays() {
        assertArrayEquals(new int[]{1, 2, 3, 4, 5, 6},
                MergeSort.merge(new int[]{1, 4, 5}, new int[]{2, 3, 6}));
        assertArrayEquals(new int[]{1, 2}, MergeSort.merge(new int[0], new int[]{1, 2}));
        assertArrayEquals(new int[]{1, 2}, MergeSort.merge(new int[]{1, 2}, new int[0]));
        assertArrayEquals(new int[]{1, 1, 2}, MergeSort.merge(new int[]{1, 2}, new int[]{1}));
    }

    @Test
    public void countsInversions() {
        assertEquals(0L, MergeSort.inversions(new int[0]));
        assertEquals(0L, MergeSort.inversions(new int[]{1, 2, 2, 3}));
        assertEquals(1L, MergeSort.inversions(new int[]{2, 1}));
        assertEquals(3L, MergeSort.inversions(new int[]{3, 2, 1}));
        assertEquals(7L, MergeSort.inversions(new int[]{2, 4, 1, 3, 0}));
    }

    @Test
    public void largerReverseInput() {
        int n = 50;
        int[] in = new int[n];
        int[] expected = new int[n];
        for (int i = 0; i < n; i++) {
            in[i] = n - 1 - i;
            expected[i] = i;
        }
        assertArrayEquals(expected, MergeSort.sorted(in));
        assertEquals((long) n * (n - 1) / 2, MergeSort.inversions(in));
    }
}
