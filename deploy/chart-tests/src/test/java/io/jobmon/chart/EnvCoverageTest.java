package io.jobmon.chart;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every environment variable a service reads (${VAR} or ${VAR:default} in its application.properties, read from the
 * repository now, so a variable added tomorrow is checked too) has a value or a secret reference in that service's
 * Deployment, unless it is knowingly optional. Secrets never travel in a ConfigMap.
 */
class EnvCoverageTest {

    private static final Pattern ENV_REFERENCE = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)(?::[^}]*)?}");
    private static final Pattern SECRET_NAME = Pattern.compile(".*(PASSWORD|SECRET|TOKEN|CREDENTIAL).*");

    /** Variables a service may go without, and why. */
    private static final Map<String, String> OPTIONAL = Map.of(
            "JOBMON_DIAGNOSIS_CLIENT_SECRET", "read only when JOBMON_DIAGNOSIS_SERVICE_ACCOUNT=true; the chart then sets"
                    + " it from oidc.diagnosisClient.existingSecret (diagnosisClientSecretComesFromItsSecret)",
            "JOBMON_ANALYZE_MEMORY_BUDGET", "unset: 60 % of the heap, which follows the pod's memory limit"
                    + " (-XX:MaxRAMPercentage); set it through the service's env to pin a size",
            "JOBMON_ALERTMANAGER_URL", "unset: no Alertmanager (the alerts API answers 503, alertsFiring is null); the"
                    + " chart sets it from monitoring.alertmanager.url");

    static List<Rendered> values() {
        return Rendered.both();
    }

    @ParameterizedTest
    @MethodSource("values")
    void everyVariableAServiceReadsIsSetInItsDeployment(Rendered r) throws IOException {
        List<String> missing = new ArrayList<>();
        for (String service : Repo.SERVICES) {
            Deployment d = r.named(Deployment.class, Rendered.objectName(service));
            for (String variable : variablesRead(service)) {
                if (value(r, d, variable).isEmpty() && !OPTIONAL.containsKey(variable)) {
                    missing.add(service + ": " + variable);
                }
            }
        }
        assertEquals(List.of(), missing, r + ": variables read but not set (set them in the chart, or add them to"
                + " OPTIONAL with the reason)");
    }

    @ParameterizedTest
    @MethodSource("values")
    void secretsComeFromSecretsNeverFromAConfigMap(Rendered r) {
        for (String service : Repo.SERVICES) {
            r.configMap(Rendered.objectName(service)).getData().keySet().forEach(key ->
                    assertTrue(!SECRET_NAME.matcher(key).matches(), r + " " + service + ": " + key + " in a ConfigMap"));
            Container c = DeploymentsTest.theContainer(r.named(Deployment.class, Rendered.objectName(service)));
            for (EnvVar e : Optional.ofNullable(c.getEnv()).orElse(List.of())) {
                if (SECRET_NAME.matcher(e.getName()).matches()) {
                    assertTrue(e.getValueFrom() != null && e.getValueFrom().getSecretKeyRef() != null,
                            r + " " + service + ": " + e.getName() + " must be a secretKeyRef");
                }
            }
        }
    }

    @Test
    void diagnosisClientSecretComesFromItsSecretWhenTheServiceAccountIsOn() {
        Rendered r = Rendered.onPrem();
        Deployment d = r.named(Deployment.class, Rendered.objectName("diagnosis-service"));
        assertEquals("true", value(r, d, "JOBMON_DIAGNOSIS_SERVICE_ACCOUNT").orElseThrow());
        assertEquals("secret jobmon-diagnosis-client/client-secret", value(r, d, "JOBMON_DIAGNOSIS_CLIENT_SECRET").orElseThrow());
    }

    @Test
    void everyOptionalVariableIsStillReadBySomeService() throws IOException {
        Set<String> read = new TreeSet<>();
        for (String service : Repo.SERVICES) {
            read.addAll(variablesRead(service));
        }
        for (String variable : OPTIONAL.keySet()) {
            assertTrue(read.contains(variable), variable + " is no longer read: drop it from OPTIONAL");
        }
    }

    /** The variables of a service's application.properties, profile-specific test and dev lines excepted. */
    static Set<String> variablesRead(String service) throws IOException {
        Set<String> variables = new TreeSet<>();
        for (String line : Files.readAllLines(Repo.ROOT.resolve(service + "/src/main/resources/application.properties"))) {
            String l = line.strip();
            if (l.startsWith("#") || l.startsWith("%test.") || l.startsWith("%dev.")) {
                continue;
            }
            Matcher m = ENV_REFERENCE.matcher(l);
            while (m.find()) {
                variables.add(m.group(1));
            }
        }
        assertTrue(!variables.isEmpty(), service + ": no ${VAR} found; is the path right?");
        return variables;
    }

    /** What the container gets for a variable: its value, "secret name/key", or empty when it gets nothing. */
    static Optional<String> value(Rendered r, Deployment d, String variable) {
        Container c = DeploymentsTest.theContainer(d);
        for (EnvVar e : Optional.ofNullable(c.getEnv()).orElse(List.of())) {
            if (e.getName().equals(variable)) {
                if (e.getValueFrom() != null && e.getValueFrom().getSecretKeyRef() != null) {
                    var ref = e.getValueFrom().getSecretKeyRef();
                    return Optional.of("secret " + ref.getName() + "/" + ref.getKey());
                }
                return Optional.ofNullable(e.getValue()).filter(v -> !v.isBlank());
            }
        }
        for (EnvFromSource from : Optional.ofNullable(c.getEnvFrom()).orElse(List.of())) {
            if (from.getConfigMapRef() != null) {
                String v = r.configMap(from.getConfigMapRef().getName()).getData().get(variable);
                if (v != null && !v.isBlank()) {
                    return Optional.of(v);
                }
            }
        }
        return Optional.empty();
    }
}
