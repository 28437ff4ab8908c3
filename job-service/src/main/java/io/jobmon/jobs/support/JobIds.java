package io.jobmon.jobs.support;

import java.security.SecureRandom;

/**
 * New job ids: {@code j-<time base36>-<6 random base36>}. Lower-case letters, digits and dashes only, so an id
 * is also a valid Kubernetes object name; time first, so ids of new jobs land at the end of the primary key.
 */
public final class JobIds {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz".toCharArray();

    private JobIds() {
    }

    public static String next() {
        StringBuilder b = new StringBuilder("j-").append(Long.toString(System.currentTimeMillis(), 36)).append('-');
        for (int i = 0; i < 6; i++) {
            b.append(ALPHABET[RANDOM.nextInt(ALPHABET.length)]);
        }
        return b.toString();
    }
}
