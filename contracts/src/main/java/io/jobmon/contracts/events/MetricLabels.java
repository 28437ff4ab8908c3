package io.jobmon.contracts.events;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * A decoded series' labels: names and values alternating, in the record's order, backed by one array whose
 * strings the record's series share. Read-only.
 */
public final class MetricLabels extends AbstractMap<String, String> {

    /** Package-private: {@link MetricSamplesBinary} writes them as they are. */
    final String[] pairs;
    /** Names strictly ascending and no value empty: then the pairs are already a series' identity. */
    private final boolean sorted;

    /** Labels of names and values alternating; the array is kept, not copied. */
    public static MetricLabels ofPairs(String... pairs) {
        if (pairs.length % 2 != 0) {
            throw new IllegalArgumentException("names and values alternate: an even count expected");
        }
        return new MetricLabels(pairs);
    }

    MetricLabels(String[] pairs) {
        this.pairs = pairs;
        boolean s = true;
        for (int i = 0; i < pairs.length && s; i += 2) {
            s = !pairs[i + 1].isEmpty() && (i == 0 || pairs[i - 2].compareTo(pairs[i]) < 0);
        }
        this.sorted = s;
    }

    /**
     * The names and values alternating when the names are strictly ascending and no value is empty (what jobmon's
     * producers write), else null. The array itself: not to be changed.
     */
    public String[] sortedPairs() {
        return sorted ? pairs : null;
    }

    /** A name the labels hold twice, or null (what makes a record invalid). */
    String twice() {
        if (sorted) {
            return null;
        }
        for (int j = 0; j < pairs.length; j += 2) {
            for (int k = j + 2; k < pairs.length; k += 2) {
                if (pairs[j].equals(pairs[k])) {
                    return pairs[j];
                }
            }
        }
        return null;
    }

    @Override
    public int size() {
        return pairs.length / 2;
    }

    @Override
    public String get(Object key) {
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i].equals(key)) {
                return pairs[i + 1];
            }
        }
        return null;
    }

    @Override
    public boolean containsKey(Object key) {
        return get(key) != null;
    }

    @Override
    public Set<Entry<String, String>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return pairs.length / 2;
            }

            @Override
            public Iterator<Entry<String, String>> iterator() {
                return new Iterator<>() {
                    int i;

                    @Override
                    public boolean hasNext() {
                        return i < pairs.length;
                    }

                    @Override
                    public Entry<String, String> next() {
                        if (i >= pairs.length) {
                            throw new NoSuchElementException();
                        }
                        Entry<String, String> e = new SimpleImmutableEntry<>(pairs[i], pairs[i + 1]);
                        i += 2;
                        return e;
                    }
                };
            }
        };
    }
}
