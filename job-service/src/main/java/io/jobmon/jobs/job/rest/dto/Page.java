package io.jobmon.jobs.job.rest.dto;

import java.util.List;

/** A page of a list; {@code nextCursor} is absent on the last page. */
public record Page<T>(List<T> items, String nextCursor) {
}
