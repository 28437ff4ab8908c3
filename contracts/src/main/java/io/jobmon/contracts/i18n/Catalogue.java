package io.jobmon.contracts.i18n;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The message catalogues of a service: its own {@code messages.properties} (English) and
 * {@code messages_zh_CN.properties} (Simplified Chinese), then the suite's common one (problem titles, shared
 * validation messages, Kubernetes reasons), read as UTF-8. A key is looked up in the service's catalogue first.
 * Placeholders are {@code {0}}, {@code {1}}, ... replaced literally (no {@code MessageFormat} quoting rules, so an
 * apostrophe is just an apostrophe). A key no catalogue has renders as the key itself: a missing translation
 * shows, it never fails a request (the completeness tests keep it from happening).
 */
public final class Catalogue {

    /** The service's own catalogue, at the root of its resources. */
    public static final String SERVICE = "messages";
    /** The suite's common catalogue, in contracts. */
    public static final String COMMON = "io/jobmon/contracts/i18n/common";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{(\\d+)}");

    private final Map<Locale, Map<String, String>> byLocale;

    private Catalogue(Map<Locale, Map<String, String>> byLocale) {
        this.byLocale = byLocale;
    }

    /** The service's catalogue (if it has one) over the common one, from {@code loader}. */
    public static Catalogue load(ClassLoader loader) {
        return load(loader, SERVICE, COMMON);
    }

    /** Catalogues by base name, the first one winning for a key several define. */
    public static Catalogue load(ClassLoader loader, String... baseNames) {
        Map<Locale, Map<String, String>> out = new HashMap<>();
        for (Locale l : Locales.SUPPORTED) {
            Map<String, String> merged = new HashMap<>();
            for (int i = baseNames.length - 1; i >= 0; i--) {
                merged.putAll(read(loader, file(baseNames[i], l)));
            }
            out.put(l, Map.copyOf(merged));
        }
        return new Catalogue(out);
    }

    /** The resource path of a catalogue in a language: English is the root file. */
    public static String file(String baseName, Locale l) {
        return baseName + (Locales.EN.equals(l) ? "" : "_" + l.getLanguage() + "_" + l.getCountry()) + ".properties";
    }

    /** Reads one catalogue file as UTF-8; an absent file is an empty catalogue. */
    public static Map<String, String> read(ClassLoader loader, String resource) {
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                return Map.of();
            }
            Properties p = new Properties();
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
            Map<String, String> out = new HashMap<>();
            p.forEach((k, v) -> out.put(k.toString(), v.toString()));
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read message catalogue " + resource, e);
        }
    }

    public String render(Locale locale, Text text) {
        return render(locale, text.code(), text.args());
    }

    /**
     * The text of {@code code} in {@code locale} with {@code args} in its placeholders; an argument that is a
     * {@link Text} is rendered in the same language first.
     */
    public String render(Locale locale, String code, List<?> args) {
        Map<String, String> texts = byLocale.getOrDefault(locale, byLocale.get(Locales.EN));
        String pattern = texts.get(code);
        if (pattern == null) {
            pattern = byLocale.get(Locales.EN).get(code);
        }
        List<String> values = new java.util.ArrayList<>(args.size());
        for (Object a : args) {
            values.add(a instanceof Text t ? render(locale, t) : String.valueOf(a));
        }
        if (pattern == null) {
            return values.isEmpty() ? code : code + " " + String.join(", ", values);
        }
        Matcher m = PLACEHOLDER.matcher(pattern);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            int i = Integer.parseInt(m.group(1));
            m.appendReplacement(out, Matcher.quoteReplacement(i < values.size() ? values.get(i) : m.group()));
        }
        m.appendTail(out);
        return out.toString();
    }

    public boolean has(String code) {
        return byLocale.get(Locales.EN).containsKey(code);
    }

    /** The placeholders a pattern uses, e.g. {@code [0, 1]}: both languages of a key must use the same. */
    public static Set<Integer> placeholders(String pattern) {
        Set<Integer> out = new TreeSet<>();
        Matcher m = PLACEHOLDER.matcher(pattern);
        while (m.find()) {
            out.add(Integer.parseInt(m.group(1)));
        }
        return out;
    }
}
