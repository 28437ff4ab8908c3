package io.jobmon.contracts.access;

/** Who besides the owner, the shared users and the tenant's admins sees a job. */
public enum Visibility {
    /** Only the owner, the users it is shared with, and admins. */
    PRIVATE,
    /** Also every member of the job's project group. */
    PROJECT
}
