package corpus.maybe;

import static org.junit.Assert.*;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.Test;

public class MaybeTest {

    private final List<String> words = Arrays.asList("ant", "bee", "cat");

    @Test
    public void presentAndAbsent() {
        assertTrue(Maybe.of(3).isPresent());
        assertFalse(Maybe.none().isPresent());
        assertFalse(Maybe.ofNullable(null).isPresent());
        assertTrue(Maybe.ofNullable("x").isPresent());
        assertEquals("Some(3)", Maybe.of(3).toString());
        assertEquals("None", Maybe.none().toString());
    }

    @Test(expected = IllegalArgumentException.class)
    public void ofNullRejected() {
        Maybe.of(null);
    }

    @Test
    public void orElseAndMap() {
        assertEquals(Integer.valueOf(5), Maybe.of(5).orElse(9));
        assertEquals(Integer.valueOf(9), Maybe.<Integer>none().orElse(9));
        assertEquals("Some(6)", Maybe.of(3).map(x -> x * 2).toString());
        assertEquals("None", Maybe.<Integer>none().map(x -> x * 2).toString());
        assertEquals("None", Maybe.of(3).map(x -> null).toString());
    }

    @Test
    public void filterKeepsOnlyMatches() {
        assertEquals("Some(4)", Maybe.of(4).filter(x -> x % 2 == 0).toString());
        assertEquals("None", Maybe.of(3).filter(x -> x % 2 == 0).toString());
        assertEquals("None", Maybe.<Integer>none().filter(x -> true).toString());
    }

    @Test
    public void atChecksBounds() {
        assertEquals("Some(ant)", Maybe.at(words, 0).toString());
        assertEquals("Some(cat)", Maybe.at(words, 2).toString());
        assertEquals("None", Maybe.at(words, 3).toString());
        assertEquals("None", Maybe.at(words, -1).toString());
        assertEquals("None", Maybe.at(Collections.<String>emptyList(), 0).toString());
    }

    @Test
    public void findFirstMatch() {
        assertEquals("Some(bee)", Maybe.find(words, w -> w.startsWith("b")).toString());
        assertEquals("Some(cat)", Maybe.find(words, w -> w.endsWith("t") && w.charAt(0) == 'c').toString());
        assertEquals("Some(ant)", Maybe.find(words, w -> w.length() == 3).toString());
        assertEquals("None", Maybe.find(words, w -> w.isEmpty()).toString());
    }

    @Test
    public void flattenDropsNone() {
        List<Maybe<Integer>> items = Arrays.asList(Maybe.of(1), Maybe.none(), Maybe.of(3));
        assertEquals(Arrays.asList(1, 3), Maybe.flatten(items));
        assertEquals(Collections.emptyList(), Maybe.flatten(Collections.<Maybe<Integer>>emptyList()));
    }
}
