package io.jobmon.sim.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PodNamesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode bundle() throws Exception {
        return JSON.readTree("""
                {"pods": [{"name": "bert-0"}, {"name": "bert-1"}],
                 "events": [{"object": "Pod/bert-0", "message": "Successfully assigned jobmon-jobs/bert-0 to n1"},
                            {"object": "Node/n1", "message": "bert-0 and bert-00 and bert-0.log"}],
                 "logs": [{"pod": "bert-0", "line": "x"}, {"pod": "bert-1", "line": "y"}],
                 "metrics": [{"name": "DCGM_FI_DEV_GPU_UTIL", "labels": {"pod": "bert-0", "gpu": "0"}}]}""");
    }

    @Test
    void aBundleWhosePodNamesAreFreeIsPlayedAsItIs() throws Exception {
        JsonNode b = bundle();
        assertSame(b, PodNames.unique(b, name -> false, "j-mx52pw0s-jmijne"));
    }

    @Test
    void takenPodsAreRenamedEverywhereTheBundleNamesThem() throws Exception {
        JsonNode b = PodNames.unique(bundle(), Set.of("bert-0")::contains, "j-mx52pw0s-jmijne");
        assertEquals("bert-0-jmijne", b.at("/pods/0/name").asText());
        assertEquals("bert-1", b.at("/pods/1/name").asText());
        assertEquals("Pod/bert-0-jmijne", b.at("/events/0/object").asText());
        assertEquals("Successfully assigned jobmon-jobs/bert-0-jmijne to n1", b.at("/events/0/message").asText());
        assertEquals("bert-0-jmijne and bert-00 and bert-0-jmijne.log", b.at("/events/1/message").asText());
        assertEquals("bert-0-jmijne", b.at("/logs/0/pod").asText());
        assertEquals("bert-1", b.at("/logs/1/pod").asText());
        assertEquals("bert-0-jmijne", b.at("/metrics/0/labels/pod").asText());
    }

    @Test
    void aNameInsideALongerNameIsLeftAlone() {
        assertEquals("w-0-x w-01 aw-0", PodNames.inText("w-0 w-01 aw-0", Map.of("w-0", "w-0-x")));
    }
}
