package corpus.lru;

import static org.junit.Assert.*;

import java.util.Arrays;
import java.util.Collections;
import org.junit.Test;

public class LruCacheTest {

    @Test
    public void evictsLeastRecentlyUsed() {
        LruCache<String, Integer> c = new LruCache<>(2);
        c.put("a", 1);
        c.put("b", 2);
        assertEquals(Integer.valueOf(1), c.get("a"));
        c.put("c", 3);
        assertNull(c.get("b"));
        assertEquals(Arrays.asList("c", "a"), c.keys());
        assertEquals(1, c.evictions());
        assertEquals(2, c.size());
    }

    @Test
    public void fillsToCapacityWithoutEviction() {
        LruCache<Integer, String> c = new LruCache<>(3);
        c.put(1, "x");
        c.put(2, "y");
        c.put(3, "z");
        assertEquals(0, c.evictions());
        assertEquals(3, c.size());
        assertEquals(Arrays.asList(3, 2, 1), c.keys());
        c.put(4, "w");
        assertEquals(Arrays.asList(4, 3, 2), c.keys());
        assertEquals(1, c.evictions());
    }

    @Test
    public void putExistingKeyUpdatesAndPromotes() {
        LruCache<String, Integer> c = new LruCache<>(2);
        c.put("a", 1);
        c.put("b", 2);
        c.put("a", 10);
        assertEquals(2, c.size());
        assertEquals(Arrays.asList("a", "b"), c.keys());
        c.put("c", 3);
        assertEquals(Arrays.asList("c", "a"), c.keys());
        assertEquals(Integer.valueOf(10), c.get("a"));
    }

    @Test
    public void removeKeepsListConsistent() {
        LruCache<String, Integer> c = new LruCache<>(3);
        c.put("a", 1);
        c.put("b", 2);
        c.put("c", 3);
        assertTrue(c.remove("b"));
        assertFalse(c.remove("b"));
        assertEquals(Arrays.asList("c", "a"), c.keys());
        assertTrue(c.remove("a"));
        assertEquals(Collections.singletonList("c"), c.keys());
        assertTrue(c.remove("c"));
        assertEquals(Collections.emptyList(), c.keys());
        c.put("d", 4);
        assertEquals(Collections.singletonList("d"), c.keys());
    }

    @Test
    public void capacityOne() {
        LruCache<String, String> c = new LruCache<>(1);
        c.put("k", "v");
        c.put("j", "w");
        assertNull(c.get("k"));
        assertEquals("w", c.get("j"));
        assertEquals(1, c.size());
    }

    @Test
    public void getMissingReturnsNull() {
        LruCache<String, Integer> c = new LruCache<>(2);
        assertNull(c.get("none"));
        assertEquals(0, c.size());
    }

    @Test(expected = IllegalArgumentException.class)
    public void zeroCapacityRejected() {
        new LruCache<String, String>(0);
    }
}
