package io.jobmon.contracts.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonValue;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.junit.jupiter.api.Test;

/** A caller as the services read it from a validated token; the role {@code service} only on a service's own token. */
class CallerFactoryTest {

    static final List<String> SERVICE_CLIENTS = List.of("jobmon-diagnosis");

    @Test
    void aKeycloakUserTokenGivesUserTenantGroupsAndRoles() {
        Caller c = CallerFactory.fromToken(token(Map.of("preferred_username", str("alice"), "tenant", str("t1"),
                "azp", str("jobmon-ui"), "groups", Json.createArrayBuilder().add("/project-nlp").build(),
                "realm_access", roles("user", "offline_access"))), SERVICE_CLIENTS);
        assertEquals("alice", c.user());
        assertEquals("t1", c.tenant());
        assertEquals(Set.of("project-nlp"), c.groups());
        assertEquals(Set.of("user", "offline_access"), c.roles());
        assertFalse(c.isService());
    }

    @Test
    void theServiceClientsOwnTokenIsAService() {
        Caller c = CallerFactory.fromToken(token(Map.of("preferred_username", str("service-account-jobmon-diagnosis"),
                "azp", str("jobmon-diagnosis"), "realm_access", roles("service"))), SERVICE_CLIENTS);
        assertTrue(c.isService());
        assertNull(c.tenant());
    }

    @Test
    void aClientIdClaimNamesTheClientToo() {
        Caller c = CallerFactory.fromToken(token(Map.of("sub", str("svc"), "client_id", str("jobmon-diagnosis"),
                "roles", Json.createArrayBuilder().add("service").build())), SERVICE_CLIENTS);
        assertTrue(c.isService());
    }

    @Test
    void aPersonsTokenNamingTheServiceRoleDoesNotMakeThemAService() {
        Caller c = CallerFactory.fromToken(token(Map.of("preferred_username", str("mallory"), "tenant", str("t1"),
                "azp", str("jobmon-ui"), "realm_access", roles("user", "service"))), SERVICE_CLIENTS);
        assertFalse(c.isService());
        assertEquals(Set.of("user"), c.roles());
        assertTrue(AccessRule.permissions(c, new JobAccess("alice", "t1", null, Visibility.PRIVATE, Set.of())).isEmpty());
    }

    @Test
    void aTokenOfAnotherConfidentialClientWithTheRoleIsNotAService() {
        Caller c = CallerFactory.fromToken(token(Map.of("preferred_username", str("service-account-ci"),
                "azp", str("ci-bot"), "realm_access", roles("service"))), SERVICE_CLIENTS);
        assertFalse(c.isService());
    }

    @Test
    void theConfiguredServiceClientsAreReadAgainWhenTheConfigurationIsReplaced() {
        ConfigProviderResolver resolver = ConfigProviderResolver.instance();
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        resolver.releaseConfig(resolver.getConfig(loader));
        JsonWebToken bot = token(Map.of("preferred_username", str("service-account-ci"), "azp", str("ci-bot"),
                "realm_access", roles("service")));
        Config ciBot = new SmallRyeConfigBuilder().withDefaultValue(CallerFactory.SERVICE_CLIENTS, "ci-bot").build();
        resolver.registerConfig(ciBot, loader);
        try {
            assertTrue(CallerFactory.fromToken(bot).isService());
            assertTrue(CallerFactory.fromToken(bot).isService()); // the kept value
        } finally {
            resolver.releaseConfig(ciBot);
        }
        // an application started again with another configuration (a test profile): read again, not the kept value
        Config diagnosisOnly = new SmallRyeConfigBuilder().withDefaultValue(CallerFactory.SERVICE_CLIENTS,
                "jobmon-diagnosis").build();
        resolver.registerConfig(diagnosisOnly, loader);
        try {
            assertFalse(CallerFactory.fromToken(bot).isService());
        } finally {
            resolver.releaseConfig(diagnosisOnly);
        }
    }

    @Test
    void withoutConfigurationTheDiagnosisClientIsTheServiceClient() {
        Caller c = CallerFactory.fromToken(token(Map.of("preferred_username", str("service-account-jobmon-diagnosis"),
                "azp", str("jobmon-diagnosis"), "realm_access", roles("service"))));
        assertTrue(c.isService());
    }

    private static JsonValue str(String s) {
        return Json.createValue(s);
    }

    private static JsonValue roles(String... roles) {
        var a = Json.createArrayBuilder();
        for (String r : roles) {
            a.add(r);
        }
        return Json.createObjectBuilder().add("roles", a).build();
    }

    private static JsonWebToken token(Map<String, JsonValue> claims) {
        Map<String, Object> all = new HashMap<>(claims);
        return new JsonWebToken() {
            @Override
            public String getName() {
                return (String) getClaim("preferred_username");
            }

            @Override
            public Set<String> getClaimNames() {
                return all.keySet();
            }

            @SuppressWarnings("unchecked")
            @Override
            public <T> T getClaim(String name) {
                Object v = all.get(name);
                // as smallrye-jwt hands them out: strings as String, the rest as JSON values
                return (T) (v instanceof jakarta.json.JsonString s && !"groups".equals(name) ? s.getString() : v);
            }
        };
    }
}
