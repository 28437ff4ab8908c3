package io.jobmon.contracts;

import static org.junit.jupiter.api.Assertions.assertThrows;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.jobmon.contracts.layers.fixture.repository.FixtureRepository;
import io.jobmon.contracts.layers.fixture.rest.FixtureDto;
import io.jobmon.contracts.layers.fixture.service.FixtureService;
import io.jobmon.testsupport.LayerRules;
import org.junit.jupiter.api.Test;

/**
 * contracts' packages depend on each other one way (no cycles) and its layers go one way, with test-support's
 * {@link LayerRules}; the rules themselves are shown to fail on a fixture that breaks them.
 */
class LayersTest {

    private static final String FIXTURE = "io.jobmon.contracts.layers.fixture";

    @Test
    void noPackageCycles() {
        LayerRules.checkNoPackageCycles("io.jobmon.contracts");
    }

    @Test
    void layersGoOneWay() {
        LayerRules.checkLayers("io.jobmon.contracts");
    }

    @Test
    void theRulesFailOnARepositoryUsingAServiceAServiceUsingARestTypeAndACycle() {
        JavaClasses fixture = new ClassFileImporter()
                .importClasses(FixtureRepository.class, FixtureService.class, FixtureDto.class);
        assertThrows(AssertionError.class, () -> LayerRules.repositoriesDoNotDependOnServices().check(fixture));
        assertThrows(AssertionError.class, () -> LayerRules.servicesDoNotDependOnRestTypes(FIXTURE).check(fixture));
        assertThrows(AssertionError.class, () -> LayerRules.noPackageCycles(FIXTURE).check(fixture));
    }
}
