package corpus.intlist;

import static org.junit.Assert.*;

import java.util.NoSuchElementException;
import org.junit.Test;

public class IntListTest {

    @Test
    public void buildAndRead() {
        IntList l = IntList.of(4, 5, 6);
        assertEquals(3, l.size());
        assertFalse(l.isEmpty());
        assertEquals(4, l.get(0));
        assertEquals(6, l.get(2));
        assertEquals("[4, 5, 6]", l.toString());
        assertArrayEquals(new int[]{4, 5, 6}, l.toArray());
        assertEquals("[]", new IntList().toString());
        assertTrue(new IntList().isEmpty());
        assertArrayEquals(new int[0], new IntList().toArray());
    }

    @Test
    public void addLastAndSet() {
        IntList l = new IntList();
        l.addLast(1);
        l.addLast(2);
        l.addFirst(0);
        l.set(2, 9);
        assertEquals("[0, 1, 9]", l.toString());
        assertEquals(3, l.size());
    }

    @Test
    public void indexBoundsChecked() {
        IntList l = IntList.of(1, 2);
        try {
            l.get(2);
            fail();
        } catch (IndexOutOfBoundsException expected) {
            assertEquals("index 2 size 2", expected.getMessage());
        }
        try {
            l.get(-1);
            fail();
        } catch (IndexOutOfBoundsException expected) {
            assertEquals("index -1 size 2", expected.getMessage());
        }
    }

    @Test
    public void insertAtEveryPosition() {
        IntList l = IntList.of(1, 3);
        l.insert(0, 0);
        l.insert(2, 2);
        l.insert(4, 4);
        assertEquals("[0, 1, 2, 3, 4]", l.toString());
        assertEquals(5, l.size());
        try {
            IntList.of(1, 2).insert(3, 9);
            fail();
        } catch (IndexOutOfBoundsException expected) {
            assertEquals("index 3 size 2", expected.getMessage());
        }
    }

    @Test
    public void removeAtAndFirst() {
        IntList l = IntList.of(7, 8, 9, 10);
        assertEquals(9, l.removeAt(2));
        assertEquals(7, l.removeFirst());
        assertEquals(10, l.removeAt(1));
        assertEquals("[8]", l.toString());
        assertEquals(1, l.size());
        assertEquals(8, l.removeAt(0));
        assertTrue(l.isEmpty());
        try {
            l.removeFirst();
            fail();
        } catch (NoSuchElementException expected) {
            assertEquals("empty list", expected.getMessage());
        }
    }

    @Test
    public void searching() {
        IntList l = IntList.of(3, 1, 3, 2);
        assertEquals(0, l.indexOf(3));
        assertEquals(2, l.lastIndexOf(3));
        assertEquals(3, l.indexOf(2));
        assertEquals(-1, l.indexOf(5));
        assertEquals(-1, l.lastIndexOf(5));
        assertTrue(l.contains(1));
        assertFalse(l.contains(4));
    }

    @Test
    public void reverseSumMax() {
        IntList l = IntList.of(1, 2, 3, 4);
        l.reverse();
        assertEquals("[4, 3, 2, 1]", l.toString());
        assertEquals(10L, l.sum());
        assertEquals(4, l.max());
        assertEquals(-1, IntList.of(-5, -1, -3).max());
        assertEquals(7, IntList.of(7).max());
        IntList e = new IntList();
        e.reverse();
        assertEquals("[]", e.toString());
        assertEquals(0L, e.sum());
    }

    @Test
    public void removeAllOccurrences() {
        IntList l = IntList.of(2, 2, 1, 2, 3, 2, 2);
        assertEquals(5, l.removeAll(2));
        assertEquals("[1, 3]", l.toString());
        assertEquals(2, l.size());
        assertEquals(0, l.removeAll(9));
        assertEquals(2, l.size());
    }

    @Test
    public void slicing() {
        IntList l = IntList.of(0, 1, 2, 3, 4);
        assertEquals("[1, 2, 3]", l.slice(1, 4).toString());
        assertEquals("[0, 1, 2, 3, 4]", l.slice(0, 5).toString());
        assertEquals("[]", l.slice(2, 2).toString());
        try {
            l.slice(3, 2);
            fail();
        } catch (IllegalArgumentException expected) {
            assertEquals("bad slice 3..2", expected.getMessage());
        }
        try {
            l.slice(0, 6);
            fail();
        } catch (IllegalArgumentException expected) {
            assertEquals("bad slice 0..6", expected.getMessage());
        }
    }

    @Test
    public void mergingSortedLists() {
        assertEquals("[1, 2, 3, 4, 5, 8]",
                IntList.mergeSorted(IntList.of(1, 4, 5), IntList.of(2, 3, 8)).toString());
        assertEquals("[1, 1, 2]", IntList.mergeSorted(IntList.of(1, 2), IntList.of(1)).toString());
        assertEquals("[5]", IntList.mergeSorted(new IntList(), IntList.of(5)).toString());
        assertEquals(3, IntList.mergeSorted(IntList.of(1, 2), IntList.of(0)).size());
    }
}
