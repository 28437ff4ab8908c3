package io.jobmon.launcher;

/** Reads a setting from a system property first, then an environment variable, then a default. */
final class Env {

    private Env() {
    }

    static String get(String name, String defaultValue) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            value = System.getenv(name);
        }
        return value == null || value.isBlank() ? defaultValue : value;
    }

    static int getInt(String name, int defaultValue) {
        return Integer.parseInt(get(name, Integer.toString(defaultValue)));
    }
}
