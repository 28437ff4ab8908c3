package io.jobmon.chart;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** helm lint (strict: warnings fail) and helm template of the default and the on-prem values. */
class ChartLintTest {

    @Test
    void theChartLintsCleanWithItsDefaultValues() {
        LintResult result = new Helm(Repo.CHART).lint().strict().call();
        assertFalse(result.isFailed(), "helm lint --strict: " + result.getMessages());
    }

    @Test
    void theChartLintsCleanWithTheOnPremValues() throws Exception {
        // helm-java's lint takes no values file: lint a copy of the chart whose values.yaml is the merge.
        LintResult result = new Helm(ChartCopy.withValues(Repo.ONPREM_VALUES)).lint().strict().call();
        assertFalse(result.isFailed(), "helm lint --strict -f values-onprem.yaml: " + result.getMessages());
    }

    @Test
    void bothValuesFilesRenderTheSixServices() {
        for (Rendered r : Rendered.both()) {
            for (String service : Repo.SERVICES) {
                assertTrue(r.objects.stream().anyMatch(o -> o.getKind().equals("Deployment")
                        && o.getMetadata().getName().equals(Rendered.objectName(service))), r + ": " + service);
            }
        }
    }
}
