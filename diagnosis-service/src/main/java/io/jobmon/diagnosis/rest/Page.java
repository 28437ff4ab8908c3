package io.jobmon.diagnosis.rest;

import java.util.List;

/** One page of a list: {@code nextCursor} is null on the last page. */
public record Page<T>(List<T> items, String nextCursor) {
}
