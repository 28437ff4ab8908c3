package io.jobmon.logs.chunk;

import java.time.LocalDate;

/** Where a chunk is: its day partition and id (the body's key in every {@link ChunkStore}). */
public record ChunkRef(LocalDate day, long id) {
}
