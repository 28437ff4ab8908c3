package io.jobmon.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * For every operation of a service's OpenAPI document, every status the module's own tests received from it
 * ({@link ApiCallRecorder}: {@code target/api-calls.tsv}) is declared. Runs after the module's other tests (the
 * {@code recorded-codes} execution of Surefire runs every {@code *RecordedCodesTest}), plain JUnit: a service's
 * {@code RecordedCodesTest} extends this.
 */
public abstract class RecordedCodesChecks {

    private final String service;

    protected RecordedCodesChecks(String service) {
        this.service = service;
    }

    @Test
    void everyStatusTheTestsSawIsDeclaredForItsOperation() throws IOException {
        Path served = Path.of("target", "openapi", service + ".json");
        OpenApiDocument doc = OpenApiDocument.read(Files.exists(served) ? served : OpenApiChecks.committed(service));
        // Nothing recorded (only this test or plain unit tests ran): nothing to compare.
        assumeTrue(Files.exists(ApiCallRecorder.FILE), "no " + ApiCallRecorder.FILE + ": run the module's tests first");
        List<String> calls = Files.readAllLines(ApiCallRecorder.FILE);
        assumeTrue(!calls.isEmpty(), "the module's tests made no /api call");
        Map<String, Set<String>> undeclared = new TreeMap<>();
        Map<String, Set<String>> seen = new TreeMap<>();
        for (String line : calls) {
            String[] f = line.split("\t");
            if (f.length != 3) {
                continue;
            }
            Optional<OpenApiDocument.Operation> op = doc.match(f[0], f[1]);
            if (op.isEmpty()) {
                continue; // a path no operation has (a 404 of the router, a refused dot-segment)
            }
            seen.computeIfAbsent(op.get().name(), k -> new TreeSet<>()).add(f[2]);
            if (!op.get().declared().contains(f[2])) {
                undeclared.computeIfAbsent(op.get().name(), k -> new TreeSet<>()).add(f[2]);
            }
        }
        System.out.println(service + ": statuses seen per operation " + seen);
        assertEquals(Map.of(), undeclared, "statuses the tests received that the OpenAPI document does not declare");
    }
}
