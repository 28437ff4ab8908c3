package io.jobmon.logs;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import io.jobmon.testsupport.LayerRules;
import org.junit.jupiter.api.Test;

/** Resource → service → repository, one way (test-support's {@link LayerRules}, on this module's main classes). */
class LayersTest {

    @Test
    void layersGoOneWay() {
        LayerRules.checkLayers("io.jobmon.logs");
    }

    /** The store (chunk) is below the intake that fills it: the intake uses the store, never the other way. */
    @Test
    void theStoreDoesNotDependOnTheIntake() {
        noClasses().that().resideInAPackage("io.jobmon.logs.chunk..")
                .should().dependOnClassesThat().resideInAPackage("io.jobmon.logs.intake..")
                .check(LayerRules.mainClasses("io.jobmon.logs"));
    }
}
