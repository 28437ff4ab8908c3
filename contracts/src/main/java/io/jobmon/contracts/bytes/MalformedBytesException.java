package io.jobmon.contracts.bytes;

/** The bytes end inside a field, or a varint runs over 10 bytes: the data is broken, not the reader. */
public final class MalformedBytesException extends IllegalStateException {

    private final int position;

    MalformedBytesException(String problem, int position) {
        super(problem + " at byte " + position);
        this.position = position;
    }

    /** Where the read started failing. */
    public int position() {
        return position;
    }
}
