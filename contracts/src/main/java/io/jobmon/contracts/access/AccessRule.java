package io.jobmon.contracts.access;

import java.util.EnumSet;
import java.util.Set;

/**
 * The one job access rule of the suite (architecture.md, "Identity and access").
 *
 * <ul>
 * <li>No tenant ever sees another tenant's job, admin or not.</li>
 * <li>The owner and the tenant's admins may do everything.</li>
 * <li>A user the job is shared with, and a member of its project group when the job is {@code PROJECT}-visible,
 * may view it, read its logs and clone it.</li>
 * <li>Anybody else sees nothing: the API answers 404 so that ids do not leak.</li>
 * <li>A platform service's own identity ({@link Caller#isService()}: automatic diagnoses) may view any job and read
 * its logs, in every tenant, and nothing else: no clone, no action, whatever other roles its token names. What it
 * reads is stored and shown under the job's own rule.</li>
 * </ul>
 */
public final class AccessRule {

    private AccessRule() {
    }

    /** What a platform service may do to any job. */
    static final Set<Permission> SERVICE = Set.copyOf(EnumSet.of(Permission.VIEW, Permission.READ_LOGS));

    public static Set<Permission> permissions(Caller caller, JobAccess job) {
        if (caller != null && job != null && caller.isService()) {
            return EnumSet.copyOf(SERVICE);
        }
        if (caller == null || job == null || caller.tenant() == null || !caller.tenant().equals(job.tenant())) {
            return EnumSet.noneOf(Permission.class);
        }
        if (caller.user() != null && caller.user().equals(job.owner()) || caller.isAdmin()) {
            return EnumSet.allOf(Permission.class);
        }
        boolean shared = caller.user() != null && job.shares().contains(caller.user());
        boolean projectMember = job.visibility() == Visibility.PROJECT && caller.inGroup(job.project());
        if (shared || projectMember) {
            return EnumSet.of(Permission.VIEW, Permission.READ_LOGS, Permission.CLONE);
        }
        return EnumSet.noneOf(Permission.class);
    }

    public static boolean may(Caller caller, JobAccess job, Permission permission) {
        return permissions(caller, job).contains(permission);
    }

    public static boolean canView(Caller caller, JobAccess job) {
        return may(caller, job, Permission.VIEW);
    }

    public static boolean canReadLogs(Caller caller, JobAccess job) {
        return may(caller, job, Permission.READ_LOGS);
    }

    public static boolean canClone(Caller caller, JobAccess job) {
        return may(caller, job, Permission.CLONE);
    }

    public static boolean canAct(Caller caller, JobAccess job) {
        return may(caller, job, Permission.ACT);
    }
}
