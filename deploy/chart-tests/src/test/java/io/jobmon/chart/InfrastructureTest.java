package io.jobmon.chart;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bundled infrastructure (CloudNativePG, the Keycloak realm import) or the platform's own, chosen by values. */
class InfrastructureTest {

    @Test
    void theBundledDatabaseIsACloudNativePgClusterWhoseGeneratedSecretTheServicesUse() {
        Rendered r = Rendered.defaults();
        GenericKubernetesResource cluster = r.custom("Cluster").get(0);
        assertEquals("postgresql.cnpg.io/v1", cluster.getApiVersion());
        assertEquals("jobmon", cluster.get("spec", "bootstrap", "initdb", "database"));
        String name = cluster.getMetadata().getName();
        for (String service : Repo.SERVICES) {
            Deployment d = r.named(Deployment.class, Rendered.objectName(service));
            if (service.equals("gateway")) {
                assertTrue(EnvCoverageTest.value(r, d, "JOBMON_DB_URL").isEmpty(), "the gateway has no database");
                continue;
            }
            assertEquals("postgresql://" + name + "-rw:5432/jobmon", EnvCoverageTest.value(r, d, "JOBMON_DB_URL").orElseThrow());
            assertEquals("secret " + name + "-app/password", EnvCoverageTest.value(r, d, "JOBMON_DB_PASSWORD").orElseThrow());
            assertEquals("secret " + name + "-app/username", EnvCoverageTest.value(r, d, "JOBMON_DB_USER").orElseThrow());
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theRealmIsImportedWithoutTheLocalDemoUsersAndWithoutThePasswordGrant() {
        GenericKubernetesResource realmImport = Rendered.defaults().custom("KeycloakRealmImport").get(0);
        assertEquals("keycloak", realmImport.get("spec", "keycloakCRName"));
        Map<String, Object> realm = realmImport.get("spec", "realm");
        assertEquals("jobmon", realm.get("realm"));
        assertFalse(realm.containsKey("users"), "demo users (password = user name) imported");
        Map<String, Object> ui = ((List<Map<String, Object>>) realm.get("clients")).stream()
                .filter(c -> "jobmon-ui".equals(c.get("clientId"))).findFirst().orElseThrow();
        assertEquals(false, ui.get("directAccessGrantsEnabled"));
        assertEquals(List.of("https://jobmon.example.com/*"), ui.get("redirectUris"));
        assertTrue(((List<?>) realm.get("groups")).size() > 0, "the realm's groups and mappers are kept");
    }

    @Test
    void onPremTheServicesUseThePlatformsDatabaseKafkaAndIssuerAndNothingIsBundled() {
        Rendered r = Rendered.onPrem();
        for (String kind : List.of("Cluster", "KeycloakRealmImport", "Kafka", "KafkaNodePool", "KafkaTopic")) {
            assertEquals(List.of(), r.custom(kind), kind);
        }
        Deployment d = r.named(Deployment.class, Rendered.objectName("log-service"));
        assertEquals("postgresql://pg-primary.infra.svc:5432/jobmon", EnvCoverageTest.value(r, d, "JOBMON_DB_URL").orElseThrow());
        assertEquals("secret jobmon-db/password", EnvCoverageTest.value(r, d, "JOBMON_DB_PASSWORD").orElseThrow());
        assertEquals("https://sso.example.internal/realms/jobmon", EnvCoverageTest.value(r, d, "JOBMON_OIDC_URL").orElseThrow());
    }

    @Test
    void theGatewayAndDiagnosisFindTheServicesByTheirServiceNames() {
        Rendered r = Rendered.defaults();
        Deployment gateway = r.named(Deployment.class, "jobmon-gateway");
        assertEquals("http://jobmon-event-ingest-service:8080", EnvCoverageTest.value(r, gateway, "JOBMON_EVENT_SERVICE_URL").orElseThrow());
        assertEquals("http://jobmon-log-service:8080", EnvCoverageTest.value(r, gateway, "JOBMON_LOG_SERVICE_URL").orElseThrow());
        Deployment diagnosis = r.named(Deployment.class, "jobmon-diagnosis-service");
        assertEquals("http://jobmon-event-ingest-service:8080", EnvCoverageTest.value(r, diagnosis, "JOBMON_EVENT_INGEST_URL").orElseThrow());
        for (Deployment d : r.all(Deployment.class)) {
            assertEquals("8080", EnvCoverageTest.value(r, d, "QUARKUS_HTTP_PORT").orElseThrow(), d.getMetadata().getName());
            assertEquals("9000", EnvCoverageTest.value(r, d, "QUARKUS_MANAGEMENT_PORT").orElseThrow(), d.getMetadata().getName());
        }
    }
}
