package io.jobmon.events.query;

import java.util.List;

/** A page of a job's events; {@code nextCursor} is null on the last page. */
public record EventPage(List<EventItem> items, String nextCursor) {
}
