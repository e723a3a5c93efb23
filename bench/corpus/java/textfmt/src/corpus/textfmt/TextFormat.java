package corpus.textfmt;

import java.util.ArrayList;
import java.util.List;

/** String building: run-length coding, word wrap, padding, tables, case conversion. */
public final class TextFormat {

    private TextFormat() {
    }

    /** "aaabcc" becomes "3a1b2c"; the empty string stays empty. */
    public static String runLengthEncode(String s) {
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            int j = i + 1;
            while (j < s.length() && s.charAt(j) == c) {
                j++;
            }
            sb.append(j - i).append(c);
            i = j;
        }
        return sb.toString();
    }

    /** Inverse of runLengthEncode; counts may have several digits. */
    public static String runLengthDecode(String s) {
        StringBuilder sb = new StringBuilder();
        int count = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                count = count * 10 + (c - '0');
            } else {
                if (count == 0) {
                    throw new IllegalArgumentException("missing count at " + i);
                }
                for (int k = 0; k < count; k++) {
                    sb.append(c);
                }
                count = 0;
            }
        }
        if (count != 0) {
            throw new IllegalArgumentException("dangling count");
        }
        return sb.toString();
    }

    /** Greedy word wrap: lines no longer than width unless a single word is longer. */
    public static List<String> wrap(String text, int width) {
        if (width < 1) {
            throw new IllegalArgumentException("width must be positive");
        }
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.trim().split("\\s+")) {
            if (word.isEmpty()) {
                continue;
            }
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(word);
        }
        if (line.length() > 0) {
            lines.add(line.toString());
        }
        return lines;
    }

    public static String padLeft(String s, int width, char fill) {
        StringBuilder sb = new StringBuilder();
        for (int i = s.length(); i < width; i++) {
            sb.append(fill);
        }
        return sb.append(s).toString();
    }

    public static String padRight(String s, int width, char fill) {
        StringBuilder sb = new StringBuilder(s);
        while (sb.length() < width) {
            sb.append(fill);
        }
        return sb.toString();
    }

    /** Centres s in width, putting the odd extra fill on the right. */
    public static String center(String s, int width) {
        int total = width - s.length();
        if (total <= 0) {
            return s;
        }
        int left = total / 2;
        return padRight(padLeft(s, s.length() + left, ' '), width, ' ');
    }

    /** Formats rows as a table: columns left-aligned, separated by " | ". */
    public static String table(String[][] rows) {
        int cols = 0;
        for (String[] row : rows) {
            cols = Math.max(cols, row.length);
        }
        int[] widths = new int[cols];
        for (String[] row : rows) {
            for (int j = 0; j < row.length; j++) {
                widths[j] = Math.max(widths[j], row[j].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < rows.length; i++) {
            for (int j = 0; j < cols; j++) {
                String cell = j < rows[i].length ? rows[i][j] : "";
                if (j > 0) {
                    sb.append(" | ");
                }
                sb.append(j == cols - 1 ? cell : padRight(cell, widths[j], ' '));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** "hello world-wide web" becomes "helloWorldWideWeb". */
    public static String camelCase(String s) {
        StringBuilder sb = new StringBuilder();
        boolean upperNext = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!Character.isLetterOrDigit(c)) {
                upperNext = sb.length() > 0;
            } else if (upperNext) {
                sb.append(Character.toUpperCase(c));
                upperNext = false;
            } else {
                sb.append(sb.length() == 0 ? Character.toLowerCase(c) : c);
            }
        }
        return sb.toString();
    }

    /** "parseHTTPHeader" becomes "parse_h_t_t_p_header". */
    public static String snakeCase(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isUpperCase(c)) {
                if (i > 0) {
                    sb.append('_');
                }
                sb.append(Character.toLowerCase(c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** Joins items as "a, b and c"; one item alone, "" for none. */
    public static String humanJoin(List<String> items) {
        StringBuilder sb = new StringBuilder();
        int n = items.size();
        for (int i = 0; i < n; i++) {
            if (i > 0 && i < n - 1) {
                sb.append(", ");
            } else if (i > 0) {
                sb.append(" and ");
            }
            sb.append(items.get(i));
        }
        return sb.toString();
    }

    /** Truncates to at most max characters, ending in "..." when cut (max >= 3). */
    public static String ellipsize(String s, int max) {
        if (max < 3) {
            throw new IllegalArgumentException("max must be at least 3");
        }
        if (s.length() <= max) {
            return s;
        }
        return s.substring(0, max - 3) + "...";
    }

    /** Reverses the order of the words, collapsing whitespace. */
    public static String reverseWords(String s) {
        String[] words = s.trim().split("\\s+");
        StringBuilder sb = new StringBuilder();
        for (int i = words.length - 1; i >= 0; i--) {
            sb.append(words[i]);
            if (i > 0) {
                sb.append(' ');
            }
        }
        return sb.toString();
    }

    /** Counts the non-overlapping occurrences of needle in haystack. */
    public static int countOccurrences(String haystack, String needle) {
        if (needle.isEmpty()) {
            return 0;
        }
        int count = 0;
        int from = 0;
        while (true) {
            int at = haystack.indexOf(needle, from);
            if (at < 0) {
                return count;
            }
            count++;
            from = at + needle.length();
        }
    }
}
