import java.util.Arrays;
import java.util.EmptyStackException;

/** An int stack on a growable array that also reports its minimum in O(1). */
public class MinStack {

    private int[] items = new int[4];
    private int[] mins = new int[4];
    private int size;

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public void push(int value) {
        if (size == items.length) {
            items = Arrays.copyOf(items, size * 2);
            mins = Arrays.copyOf(mins, size * 2);
        }
        items[size] = value;
        mins[size] = size == 0 ? value : Math.min(value, mins[size - 1]);
        size++;
    }

    public int pop() {
        if (size == 0) {
            throw new EmptyStackException();
        }
        size--;
        return items[size];
    }

    public int peek() {
        if (size == 0) {
            throw new EmptyStackException();
        }
        return items[size - 1];
    }

    public int min() {
        if (size == 0) {
            throw new EmptyStackException();
        }
        return mins[size - 1];
    }

    /** The element depth positions below the top (0 is the top). */
    public int peekAt(int depth) {
        if (depth < 0 || depth >= size) {
            throw new IllegalArgumentException("depth " + depth);
        }
        return items[size - 1 - depth];
    }

    /** Pops up to n elements, returning them top first. */
    public int[] popMany(int n) {
        int k = Math.min(n, size);
        int[] out = new int[k];
        for (int i = 0; i < k; i++) {
            out[i] = pop();
        }
        return out;
    }

    /** Bottom-to-top contents, e.g. "[1, 2, 3>". */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < size; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(items[i]);
        }
        return sb.append('>').toString();
    }
}
