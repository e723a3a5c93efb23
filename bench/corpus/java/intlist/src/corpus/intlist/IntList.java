package corpus.intlist;

import java.util.NoSuchElementException;

/** A singly linked list of ints built on a static nested Node class. */
public class IntList {

    /** One cell of the list. */
    static final class Node {
        int value;
        Node next;

        Node(int value, Node next) {
            this.value = value;
            this.next = next;
        }
    }

    private Node head;
    private int size;

    public IntList() {
    }

    /** A list holding the given values in order. */
    public static IntList of(int... values) {
        IntList list = new IntList();
        for (int i = values.length - 1; i >= 0; i--) {
            list.addFirst(values[i]);
        }
        return list;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public void addFirst(int value) {
        head = new Node(value, head);
        size++;
    }

    public void addLast(int value) {
        Node node = new Node(value, null);
        if (head == null) {
            head = node;
        } else {
            Node cur = head;
            while (cur.next != null) {
                cur = cur.next;
            }
            cur.next = node;
        }
        size++;
    }

    private Node nodeAt(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("index " + index + " size " + size);
        }
        Node cur = head;
        for (int i = 0; i < index; i++) {
            cur = cur.next;
        }
        return cur;
    }

    public int get(int index) {
        return nodeAt(index).value;
    }

    public void set(int index, int value) {
        nodeAt(index).value = value;
    }

    /** Inserts before position index; index == size appends. */
    public void insert(int index, int value) {
        if (index < 0 || index > size) {
            throw new IndexOutOfBoundsException("index " + index + " size " + size);
        }
        if (index == 0) {
            addFirst(value);
            return;
        }
        Node prev = nodeAt(index - 1);
        prev.next = new Node(value, prev.next);
        size++;
    }

    /** Removes and returns the element at index. */
    public int removeAt(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("index " + index + " size " + size);
        }
        int removed;
        if (index == 0) {
            removed = head.value;
            head = head.next;
        } else {
            Node prev = nodeAt(index - 1);
            removed = prev.next.value;
            prev.next = prev.next.next;
        }
        size--;
        return removed;
    }

    public int removeFirst() {
        if (head == null) {
            throw new NoSuchElementException("empty list");
        }
        return removeAt(0);
    }

    /** First index of value, or -1. */
    public int indexOf(int value) {
        int i = 0;
        for (Node cur = head; cur != null; cur = cur.next) {
            if (cur.value == value) {
                return i;
            }
            i++;
        }
        return -1;
    }

    /** Last index of value, or -1. */
    public int lastIndexOf(int value) {
        int found = -1;
        int i = 0;
        for (Node cur = head; cur != null; cur = cur.next) {
            if (cur.value == value) {
                found = i;
            }
            i++;
        }
        return found;
    }

    public boolean contains(int value) {
        return indexOf(value) >= 0;
    }

    /** Reverses the list in place. */
    public void reverse() {
        Node prev = null;
        Node cur = head;
        while (cur != null) {
            Node next = cur.next;
            cur.next = prev;
            prev = cur;
            cur = next;
        }
        head = prev;
    }

    public long sum() {
        long total = 0;
        for (Node cur = head; cur != null; cur = cur.next) {
            total += cur.value;
        }
        return total;
    }

    public int max() {
        if (head == null) {
            throw new NoSuchElementException("empty list");
        }
        int best = head.value;
        for (Node cur = head.next; cur != null; cur = cur.next) {
            if (cur.value > best) {
                best = cur.value;
            }
        }
        return best;
    }

    /** Removes every element equal to value; returns how many were removed. */
    public int removeAll(int value) {
        int removed = 0;
        while (head != null && head.value == value) {
            head = head.next;
            removed++;
        }
        Node cur = head;
        while (cur != null && cur.next != null) {
            if (cur.next.value == value) {
                cur.next = cur.next.next;
                removed++;
            } else {
                cur = cur.next;
            }
        }
        size -= removed;
        return removed;
    }

    /** A new list with elements [from, to). */
    public IntList slice(int from, int to) {
        if (from < 0 || to > size || from > to) {
            throw new IllegalArgumentException("bad slice " + from + ".." + to);
        }
        IntList out = new IntList();
        Node cur = head;
        for (int i = 0; i < to; i++) {
            if (i >= from) {
                out.addLast(cur.value);
            }
            cur = cur.next;
        }
        return out;
    }

    /** Merges two lists sorted ascending into a new sorted list. */
    public static IntList mergeSorted(IntList a, IntList b) {
        IntList out = new IntList();
        Node x = a.head;
        Node y = b.head;
        while (x != null && y != null) {
            if (x.value <= y.value) {
                out.addLast(x.value);
                x = x.next;
            } else {
                out.addLast(y.value);
                y = y.next;
            }
        }
        for (Node rest = x != null ? x : y; rest != null; rest = rest.next) {
            out.addLast(rest.value);
        }
        return out;
    }

    public int[] toArray() {
        int[] out = new int[size];
        Node cur = head;
        for (int i = 0; i < size; i++) {
            out[i] = cur.value;
            cur = cur.next;
        }
        return out;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("[");
        for (Node cur = head; cur != null; cur = cur.next) {
            sb.append(cur.value);
            if (cur.next != null) {
                sb.append(", ");
            }
        }
        return sb.append(']').toString();
    }
}
