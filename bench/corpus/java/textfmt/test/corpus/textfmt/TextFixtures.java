package corpus.textfmt;

import java.util.List;

/** Helpers shared by the TextFormat tests. */
final class TextFixtures {

    private TextFixtures() {
    }

    static final String PANGRAM = "the quick brown fox jumps over the lazy dog";

    /** Lines joined with '/' so a whole wrap result fits one assertion. */
    static String joined(List<String> lines) {
        return String.join("/", lines);
    }

    static String repeat(char c, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(c);
        }
        return sb.toString();
    }
}
