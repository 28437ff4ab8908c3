package io.jobmon.contracts.access;

import static io.jobmon.contracts.access.Permission.ACT;
import static io.jobmon.contracts.access.Permission.CLONE;
import static io.jobmon.contracts.access.Permission.READ_LOGS;
import static io.jobmon.contracts.access.Permission.VIEW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The access rule of architecture.md, every kind of caller against every kind of job. */
class AccessRuleTest {

    static final Caller OWNER = new Caller("alice", "t1", Set.of("project-nlp"), Set.of("user"));
    static final Caller SHARED = new Caller("carol", "t1", Set.of("project-cv"), Set.of("user"));
    static final Caller PROJECT_MEMBER = new Caller("bob", "t1", Set.of("project-nlp"), Set.of("user"));
    static final Caller OTHER_USER = new Caller("erin", "t1", Set.of("project-cv"), Set.of("user"));
    static final Caller ADMIN = new Caller("admin", "t1", Set.of(), Set.of("admin", "user"));
    static final Caller OTHER_TENANT_ADMIN = new Caller("root", "t2", Set.of("project-nlp"), Set.of("admin"));
    static final Caller OTHER_TENANT_NAMESAKE = new Caller("alice", "t2", Set.of("project-nlp"), Set.of("user"));
    static final Caller NO_TENANT = new Caller("alice", null, Set.of("project-nlp"), Set.of("admin"));
    static final Caller SERVICE = new Caller("service-account-jobmon-diagnosis", null, Set.of(), Set.of("service"));
    static final Caller SERVICE_WITH_MORE_ROLES = new Caller("service-account-jobmon-diagnosis", "t2",
            Set.of("project-nlp"), Set.of("service", "admin", "user"));

    static final Set<Permission> ALL = EnumSet.allOf(Permission.class);
    static final Set<Permission> READ = EnumSet.of(VIEW, READ_LOGS, CLONE);
    static final Set<Permission> NONE = EnumSet.noneOf(Permission.class);
    static final Set<Permission> SERVICE_READ = EnumSet.of(VIEW, READ_LOGS);

    static JobAccess job(Visibility visibility) {
        return new JobAccess("alice", "t1", "project-nlp", visibility, Set.of("carol"));
    }

    static Stream<Arguments> matrix() {
        return Stream.of(
                Arguments.of("owner, private", OWNER, Visibility.PRIVATE, ALL),
                Arguments.of("owner, project", OWNER, Visibility.PROJECT, ALL),
                Arguments.of("shared user, private", SHARED, Visibility.PRIVATE, READ),
                Arguments.of("shared user, project", SHARED, Visibility.PROJECT, READ),
                Arguments.of("project member, private", PROJECT_MEMBER, Visibility.PRIVATE, NONE),
                Arguments.of("project member, project", PROJECT_MEMBER, Visibility.PROJECT, READ),
                Arguments.of("other user, private", OTHER_USER, Visibility.PRIVATE, NONE),
                Arguments.of("other user, project", OTHER_USER, Visibility.PROJECT, NONE),
                Arguments.of("tenant admin, private", ADMIN, Visibility.PRIVATE, ALL),
                Arguments.of("tenant admin, project", ADMIN, Visibility.PROJECT, ALL),
                Arguments.of("other tenant's admin, private", OTHER_TENANT_ADMIN, Visibility.PRIVATE, NONE),
                Arguments.of("other tenant's admin, project", OTHER_TENANT_ADMIN, Visibility.PROJECT, NONE),
                Arguments.of("same name in another tenant", OTHER_TENANT_NAMESAKE, Visibility.PROJECT, NONE),
                Arguments.of("token without tenant", NO_TENANT, Visibility.PROJECT, NONE),
                Arguments.of("platform service, private job of another tenant", SERVICE, Visibility.PRIVATE, SERVICE_READ),
                Arguments.of("platform service, project job", SERVICE, Visibility.PROJECT, SERVICE_READ),
                Arguments.of("platform service whose token also names admin", SERVICE_WITH_MORE_ROLES,
                        Visibility.PRIVATE, SERVICE_READ));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("matrix")
    void eachCallerGetsExactlyWhatTheRuleSays(String who, Caller caller, Visibility visibility, Set<Permission> expected) {
        JobAccess job = job(visibility);
        assertEquals(expected, AccessRule.permissions(caller, job));
        assertEquals(expected.contains(VIEW), AccessRule.canView(caller, job));
        assertEquals(expected.contains(READ_LOGS), AccessRule.canReadLogs(caller, job));
        assertEquals(expected.contains(CLONE), AccessRule.canClone(caller, job));
        assertEquals(expected.contains(ACT), AccessRule.canAct(caller, job));
    }

    @Test
    void whoeverMayActMayAlsoSeeReadAndClone() {
        matrix().forEach(a -> {
            Caller c = (Caller) a.get()[1];
            JobAccess j = job((Visibility) a.get()[2]);
            if (AccessRule.canAct(c, j)) {
                assertTrue(AccessRule.permissions(c, j).containsAll(READ));
            }
            if (!AccessRule.canView(c, j)) {
                assertEquals(NONE, AccessRule.permissions(c, j));
            }
        });
    }

    @Test
    void aJobWithoutProjectIsNotVisibleToCallersWithoutGroups() {
        JobAccess job = new JobAccess("alice", "t1", null, Visibility.PROJECT, Set.of());
        assertFalse(AccessRule.canView(new Caller("bob", "t1", Set.of(), Set.of("user")), job));
    }

    @Test
    void missingCallerOrJobSeesNothing() {
        assertEquals(NONE, AccessRule.permissions(null, job(Visibility.PROJECT)));
        assertEquals(NONE, AccessRule.permissions(OWNER, null));
    }

    @Test
    void visibilityDefaultsToPrivate() {
        JobAccess job = new JobAccess("alice", "t1", "project-nlp", null, null);
        assertEquals(Visibility.PRIVATE, job.visibility());
        assertFalse(AccessRule.canView(PROJECT_MEMBER, job));
    }
}
