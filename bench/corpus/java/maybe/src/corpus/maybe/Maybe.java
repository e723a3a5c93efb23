package corpus.maybe;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/** An immutable optional value, with a few list helpers built on it. */
public final class Maybe<T> {

    private static final Maybe<?> NONE = new Maybe<>(null);

    private final T value;

    private Maybe(T value) {
        this.value = value;
    }

    public static <T> Maybe<T> of(T value) {
        if (value == null) {
            throw new IllegalArgumentException("null value");
        }
        return new Maybe<>(value);
    }

    @SuppressWarnings("unchecked")
    public static <T> Maybe<T> none() {
        return (Maybe<T>) NONE;
    }

    public static <T> Maybe<T> ofNullable(T value) {
        return value == null ? none() : new Maybe<>(value);
    }

    public boolean isPresent() {
        return value != null;
    }

    public T orElse(T fallback) {
        return isPresent() ? value : fallback;
    }

    public <R> Maybe<R> map(Function<? super T, ? extends R> f) {
        if (!isPresent()) {
            return none();
        }
        return ofNullable(f.apply(value));
    }

    public Maybe<T> filter(Predicate<? super T> p) {
        return isPresent() && p.test(value) ? this : none();
    }

    /** The element at index, or none when the index is out of range. */
    public static <T> Maybe<T> at(List<T> list, int index) {
        if (index < 0 || index >= list.size()) {
            return none();
        }
        return ofNullable(list.get(index));
    }

    /** The first element matching p. */
    public static <T> Maybe<T> find(List<T> list, Predicate<? super T> p) {
        for (int i = 0; i < list.size(); i++) {
            if (p.test(list.get(i))) {
                return ofNullable(list.get(i));
            }
        }
        return none();
    }

    /** The present values, in order. */
    public static <T> List<T> flatten(List<Maybe<T>> items) {
        List<T> out = new ArrayList<>();
        for (Maybe<T> m : items) {
            if (m.isPresent()) {
                out.add(m.value);
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return isPresent() ? "Some(" + value + ")" : "None";
    }
}
