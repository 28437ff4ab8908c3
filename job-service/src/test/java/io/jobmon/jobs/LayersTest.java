package io.jobmon.jobs;

import io.jobmon.testsupport.LayerRules;
import org.junit.jupiter.api.Test;

/** Resource → service → repository, one way (test-support's {@link LayerRules}, on this module's main classes). */
class LayersTest {

    @Test
    void layersGoOneWay() {
        LayerRules.checkLayers("io.jobmon.jobs");
    }
}
