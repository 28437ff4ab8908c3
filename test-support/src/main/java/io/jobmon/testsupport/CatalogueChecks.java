package io.jobmon.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The completeness of a message catalogue (contracts' {@code Catalogue}): the English file ({@code <base>.properties})
 * and the Chinese one ({@code <base>_zh_CN.properties}) have the same keys, every key the same placeholders in both,
 * no empty text, every Chinese text in Chinese; and every catalogue key the service's code names literally
 * ({@code Text.of("job.message.submitted", ...)}) is in the catalogues it reads. A service's {@code CatalogueTest}
 * extends this (plain JUnit, no Quarkus).
 */
public abstract class CatalogueChecks {

    /** The common catalogue of contracts, read by every service after its own. */
    public static final String COMMON = "io/jobmon/contracts/i18n/common";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{(\\d+)}");
    private static final Pattern LITERAL = Pattern.compile("\"([a-z][a-z0-9-]*(?:\\.[a-z0-9][a-z0-9-]*)+)\"");
    private static final Pattern HAN = Pattern.compile("\\p{IsHan}");

    /** The base name of the catalogue under test: the service's own ({@code messages}) unless overridden. */
    protected String baseName() {
        return "messages";
    }

    /** The catalogues the code reads keys from, the one under test included. */
    protected List<String> readBy() {
        return List.of(baseName(), COMMON);
    }

    /** Where the code that names keys lives. */
    protected Path sources() {
        return Path.of("src/main/java");
    }

    /** Keys that must exist although no literal names them (built at run time, e.g. by a prefix and a code). */
    protected Set<String> requiredKeys() {
        return Set.of();
    }

    /** Chinese texts that may stay without a Chinese character (a unit, a format). */
    protected Set<String> untranslatedKeys() {
        return Set.of();
    }

    public static Map<String, String> read(String resource) {
        try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                return Map.of();
            }
            Properties p = new Properties();
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
            Map<String, String> out = new TreeMap<>();
            p.forEach((k, v) -> out.put(k.toString(), v.toString()));
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Map<String, String> english() {
        return read(baseName() + ".properties");
    }

    private Map<String, String> chinese() {
        return read(baseName() + "_zh_CN.properties");
    }

    @Test
    void everyKeyIsInBothLanguages() {
        Map<String, String> en = english();
        Map<String, String> zh = chinese();
        assertTrue(!en.isEmpty(), baseName() + ".properties is missing or empty");
        Set<String> onlyEn = new TreeSet<>(en.keySet());
        onlyEn.removeAll(zh.keySet());
        Set<String> onlyZh = new TreeSet<>(zh.keySet());
        onlyZh.removeAll(en.keySet());
        assertEquals(Set.of(), onlyEn, "keys without a Chinese text in " + baseName() + "_zh_CN.properties");
        assertEquals(Set.of(), onlyZh, "keys without an English text in " + baseName() + ".properties");
    }

    @Test
    void everyKeyHasTheSamePlaceholdersInBothLanguages() {
        Map<String, String> zh = chinese();
        List<String> wrong = new ArrayList<>();
        english().forEach((key, text) -> {
            String other = zh.get(key);
            if (other != null && !placeholders(text).equals(placeholders(other))) {
                wrong.add(key + ": en " + placeholders(text) + ", zh " + placeholders(other));
            }
        });
        assertEquals(List.of(), wrong);
    }

    @Test
    void noTextIsEmptyAndEveryChineseTextIsChinese() {
        List<String> wrong = new ArrayList<>();
        english().forEach((k, v) -> {
            if (v.isBlank()) {
                wrong.add("en " + k + " is empty");
            }
        });
        chinese().forEach((k, v) -> {
            if (v.isBlank() || !untranslatedKeys().contains(k) && !HAN.matcher(v).find()) {
                wrong.add("zh " + k + " is not Chinese: " + v);
            }
        });
        assertEquals(List.of(), wrong);
    }

    @Test
    void everyKeyTheCodeNamesIsInTheCatalogues() throws IOException {
        Map<String, String> known = new TreeMap<>();
        readBy().forEach(base -> known.putAll(read(base + ".properties")));
        Set<String> prefixes = new TreeSet<>();
        known.keySet().forEach(k -> prefixes.add(k.substring(0, k.indexOf('.') + 1)));
        Set<String> missing = new TreeSet<>();
        for (String k : requiredKeys()) {
            if (!known.containsKey(k)) {
                missing.add(k);
            }
        }
        if (Files.isDirectory(sources())) {
            try (Stream<Path> files = Files.walk(sources())) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    Matcher m = LITERAL.matcher(Files.readString(f));
                    while (m.find()) {
                        String key = m.group(1);
                        boolean looksLikeKey = prefixes.stream().anyMatch(key::startsWith);
                        if (looksLikeKey && !known.containsKey(key) && !key.endsWith(".")) {
                            missing.add(key + " (" + f.getFileName() + ")");
                        }
                    }
                }
            }
        }
        assertEquals(Set.of(), missing, "keys the code uses that no catalogue has");
    }

    static Set<Integer> placeholders(String pattern) {
        Set<Integer> out = new TreeSet<>();
        Matcher m = PLACEHOLDER.matcher(pattern);
        while (m.find()) {
            out.add(Integer.parseInt(m.group(1)));
        }
        return out;
    }
}
