package corpus.mergesort;

import java.util.Arrays;

/** Top-down merge sort, plus merging helpers and an inversion counter. */
public final class MergeSort {

    private MergeSort() {
    }

    /** Returns a sorted copy; the argument is left untouched. */
    public static int[] sorted(int[] values) {
        int[] copy = Arrays.copyOf(values, values.length);
        sortRange(copy, new int[copy.length], 0, copy.length);
        return copy;
    }

    private static void sortRange(int[] a, int[] buf, int from, int to) {
        if (to - from < 2) {
            return;
        }
        int mid = from + (to - from) / 2;
        sortRange(a, buf, from, mid);
        sortRange(a, buf, mid, to);
        int i = from;
        int j = mid;
        int k = from;
        while (i < mid && j < to) {
            if (a[i] <= a[j]) {
                buf[k++] = a[i++];
            } else {
                buf[k++] = a[j++];
            }
        }
        while (i < mid) {
            buf[k++] = a[i++];
        }
        while (j < to) {
            buf[k++] = a[j++];
        }
        for (int t = from; t < to; t++) {
            a[t] = buf[t];
        }
    }

    /** Merges two sorted arrays into one sorted array. */
    public static int[] merge(int[] left, int[] right) {
        int[] out = new int[left.length + right.length];
        int i = 0;
        int j = 0;
        for (int k = 0; k < out.length; k++) {
            if (j >= right.length || (i < left.length && left[i] <= right[j])) {
                out[k] = left[i++];
            } else {
                out[k] = right[j++];
            }
        }
        return out;
    }

    /** Number of pairs i < j with values[i] > values[j]. */
    public static long inversions(int[] values) {
        int[] a = Arrays.copyOf(values, values.length);
        return countRange(a, new int[a.length], 0, a.length);
    }

    private static long countRange(int[] a, int[] buf, int from, int to) {
        if (to - from < 2) {
            return 0;
        }
        int mid = (from + to) / 2;
        long count = countRange(a, buf, from, mid) + countRange(a, buf, mid, to);
        int i = from;
        int j = mid;
        int k = from;
        while (i < mid || j < to) {
            if (j == to || (i < mid && a[i] <= a[j])) {
                buf[k++] = a[i++];
            } else {
                count += mid - i;
                buf[k++] = a[j++];
            }
        }
        System.arraycopy(buf, from, a, from, to - from);
        return count;
    }
}
