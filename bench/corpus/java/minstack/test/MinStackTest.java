import static org.junit.Assert.*;

import java.util.EmptyStackException;
import org.junit.Test;

public class MinStackTest {

    @Test
    public void pushPopOrder() {
        MinStack s = new MinStack();
        s.push(1);
        s.push(2);
        s.push(3);
        assertEquals(3, s.size());
        assertEquals(3, s.peek());
        assertEquals(3, s.pop());
        assertEquals(2, s.pop());
        assertEquals(1, s.pop());
        assertTrue(s.isEmpty());
    }

    @Test
    public void minimumTracksPops() {
        MinStack s = new MinStack();
        s.push(5);
        assertEquals(5, s.min());
        s.push(7);
        assertEquals(5, s.min());
        s.push(2);
        s.push(2);
        assertEquals(2, s.min());
        s.pop();
        assertEquals(2, s.min());
        s.pop();
        assertEquals(5, s.min());
        s.push(-1);
        assertEquals(-1, s.min());
    }

    @Test
    public void growsPastInitialCapacity() {
        MinStack s = new MinStack();
        for (int i = 10; i > 0; i--) {
            s.push(i);
        }
        assertEquals(10, s.size());
        assertEquals(1, s.min());
        assertEquals("[10, 9, 8, 7, 6, 5, 4, 3, 2, 1>", s.toString());
    }

    @Test(expected = EmptyStackException.class)
    public void popEmpty() {
        new MinStack().pop();
    }

    @Test(expected = EmptyStackException.class)
    public void minEmpty() {
        new MinStack().min();
    }

    @Test(expected = EmptyStackException.class)
    public void peekEmpty() {
        new MinStack().peek();
    }

    @Test
    public void peekAtDepth() {
        MinStack s = new MinStack();
        s.push(4);
        s.push(8);
        s.push(6);
        assertEquals(6, s.peekAt(0));
        assertEquals(4, s.peekAt(2));
        try {
            s.peekAt(3);
            fail();
        } catch (IllegalArgumentException expected) {
            assertEquals("depth 3", expected.getMessage());
        }
        try {
            s.peekAt(-1);
            fail();
        } catch (IllegalArgumentException expected) {
            assertEquals("depth -1", expected.getMessage());
        }
    }

    @Test
    public void popManyAndFormat() {
        MinStack s = new MinStack();
        assertEquals("[>", s.toString());
        s.push(1);
        s.push(2);
        s.push(3);
        assertArrayEquals(new int[]{3, 2}, s.popMany(2));
        assertEquals("[1>", s.toString());
        assertArrayEquals(new int[]{1}, s.popMany(5));
        assertArrayEquals(new int[0], s.popMany(1));
    }
}
