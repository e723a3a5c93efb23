package corpus.textfmt;

import static org.junit.Assert.*;

import java.util.Arrays;
import java.util.Collections;
import org.junit.Test;

public class TextFormatTest {

    @Test
    public void encodeRuns() {
        assertEquals("3a1b2c", TextFormat.runLengthEncode("aaabcc"));
        assertEquals("", TextFormat.runLengthEncode(""));
        assertEquals("1x", TextFormat.runLengthEncode("x"));
        assertEquals("12z1y", TextFormat.runLengthEncode(TextFixtures.repeat('z', 12) + "y"));
    }

    @Test
    public void decodeRuns() {
        assertEquals("aaabcc", TextFormat.runLengthDecode("3a1b2c"));
        assertEquals(TextFixtures.repeat('q', 10), TextFormat.runLengthDecode("10q"));
        assertEquals("", TextFormat.runLengthDecode(""));
        try {
            TextFormat.runLengthDecode("2ab");
            fail();
        } catch (IllegalArgumentException expected) {
            assertEquals("missing count at 2", expected.getMessage());
        }
    }

    @Test(expected = IllegalArgumentException.class)
    public void decodeDanglingCount() {
        TextFormat.runLengthDecode("2a3");
    }

    @Test
    public void wrapping() {
        assertEquals("the quick/brown fox/jumps over/the lazy/dog",
                TextFixtures.joined(TextFormat.wrap(TextFixtures.PANGRAM, 10)));
        assertEquals("the quick brown/fox jumps over/the lazy dog",
                TextFixtures.joined(TextFormat.wrap(TextFixtures.PANGRAM, 15)));
        assertEquals("ab cd", TextFixtures.joined(TextFormat.wrap("  ab   cd ", 5)));
        assertEquals("ab/cd", TextFixtures.joined(TextFormat.wrap("ab cd", 4)));
        assertEquals("abcdefg/h", TextFixtures.joined(TextFormat.wrap("abcdefg h", 3)));
        assertEquals(Collections.emptyList(), TextFormat.wrap("   ", 3));
    }

    @Test(expected = IllegalArgumentException.class)
    public void wrapWidthChecked() {
        TextFormat.wrap("a", 0);
    }

    @Test
    public void padding() {
        assertEquals("007", TextFormat.padLeft("7", 3, '0'));
        assertEquals("1234", TextFormat.padLeft("1234", 3, '0'));
        assertEquals("ab..", TextFormat.padRight("ab", 4, '.'));
        assertEquals("abc", TextFormat.padRight("abc", 3, '.'));
        assertEquals(" ab  ", TextFormat.center("ab", 5));
        assertEquals(" ab ", TextFormat.center("ab", 4));
        assertEquals("abc", TextFormat.center("abc", 2));
    }

    @Test
    public void tables() {
        String[][] rows = {{"id", "name", "x"}, {"1", "ann"}, {"22", "bo", "yes"}};
        assertEquals("id | name | x\n1  | ann  | \n22 | bo   | yes\n", TextFormat.table(rows));
        assertEquals("", TextFormat.table(new String[0][]));
    }

    @Test
    public void caseConversion() {
        assertEquals("helloWorldWideWeb", TextFormat.camelCase("hello world-wide web"));
        assertEquals("abc", TextFormat.camelCase("  Abc"));
        assertEquals("a1B", TextFormat.camelCase("a1 b"));
        assertEquals("parse_h_t_t_p_header", TextFormat.snakeCase("parseHTTPHeader"));
        assertEquals("abc", TextFormat.snakeCase("Abc"));
        assertEquals("plain", TextFormat.snakeCase("plain"));
    }

    @Test
    public void joiningAndTruncation() {
        assertEquals("a, b and c", TextFormat.humanJoin(Arrays.asList("a", "b", "c")));
        assertEquals("a and b", TextFormat.humanJoin(Arrays.asList("a", "b")));
        assertEquals("a", TextFormat.humanJoin(Collections.singletonList("a")));
        assertEquals("", TextFormat.humanJoin(Collections.<String>emptyList()));
        assertEquals("hello", TextFormat.ellipsize("hello", 5));
        assertEquals("he...", TextFormat.ellipsize("hello!", 5));
        assertEquals("...", TextFormat.ellipsize("abcd", 3));
        try {
            TextFormat.ellipsize("abc", 2);
            fail();
        } catch (IllegalArgumentException expected) {
            assertEquals("max must be at least 3", expected.getMessage());
        }
    }

    @Test
    public void wordsAndOccurrences() {
        assertEquals("dog lazy the", TextFormat.reverseWords("  the lazy   dog "));
        assertEquals("one", TextFormat.reverseWords("one"));
        assertEquals(2, TextFormat.countOccurrences(TextFixtures.PANGRAM, "the"));
        assertEquals(2, TextFormat.countOccurrences("aaaa", "aa"));
        assertEquals(1, TextFormat.countOccurrences("aaa", "aa"));
        assertEquals(0, TextFormat.countOccurrences("abc", ""));
        assertEquals(0, TextFormat.countOccurrences("abc", "d"));
        assertEquals(1, TextFormat.countOccurrences("abc", "c"));
    }
}
