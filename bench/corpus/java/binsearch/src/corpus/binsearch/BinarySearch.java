package corpus.binsearch;

/** Binary search variants over sorted int arrays. */
public final class BinarySearch {

    private BinarySearch() {
    }

    /** Index of key in the sorted array, or -1 when absent. */
    public static int indexOf(int[] sorted, int key) {
        int lo = 0;
        int hi = sorted.length - 1;
        while (lo <= hi) {
            int mid = lo + (hi - lo) / 2;
            if (sorted[mid] < key) {
                lo = mid + 1;
            } else if (sorted[mid] > key) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    /** First index whose element is not less than key (sorted.length when none). */
    public static int lowerBound(int[] sorted, int key) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** First index whose element is greater than key (sorted.length when none). */
    public static int upperBound(int[] sorted, int key) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] <= key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Number of occurrences of key. */
    public static int count(int[] sorted, int key) {
        return upperBound(sorted, key) - lowerBound(sorted, key);
    }

    /** Integer square root: the largest r with r * r <= n, for n >= 0. */
    public static int isqrt(int n) {
        if (n < 2) {
            return n;
        }
        long lo = 1;
        long hi = n;
        long best = 1;
        while (lo <= hi) {
            long mid = (lo + hi) / 2;
            if (mid * mid <= n) {
                best = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return (int) best;
    }

    /** True when the array is sorted in non-decreasing order. */
    public static boolean isSorted(int[] values) {
        for (int i = 1; i < values.length; i++) {
            if (values[i - 1] > values[i]) {
                return false;
            }
        }
        return true;
    }
}
