package io.jobmon.testsupport;

import io.restassured.RestAssured;
import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Records the method, path and status of every {@code /api} call a module's tests make through RestAssured into
 * {@code target/api-calls.tsv}, so that {@link RecordedCodesChecks} can tell whether the service's OpenAPI document
 * declares every status its own tests saw. Installed before every {@code @QuarkusTest} ({@link RecordApiCalls});
 * the file starts empty in each test JVM.
 */
public final class ApiCallRecorder implements Filter {

    public static final Path FILE = Path.of("target", "api-calls.tsv");
    private static final String STARTED = "jobmon.api-calls.started";

    /** Adds the recorder to RestAssured's global filters, once. */
    public static synchronized void install() {
        if (RestAssured.filters().stream().noneMatch(f -> f.getClass().getName().equals(ApiCallRecorder.class.getName()))) {
            RestAssured.filters(new ApiCallRecorder());
        }
    }

    @Override
    public Response filter(FilterableRequestSpecification request, FilterableResponseSpecification response,
            FilterContext ctx) {
        Response r = ctx.next(request, response);
        String path;
        try {
            path = URI.create(request.getURI()).getRawPath();
        } catch (IllegalArgumentException e) {
            return r; // a URI the test built on purpose to be invalid
        }
        if (path != null && path.startsWith("/api/")) {
            write(request.getMethod() + "\t" + path + "\t" + r.getStatusCode() + "\n");
        }
        return r;
    }

    private static synchronized void write(String line) {
        try {
            Files.createDirectories(FILE.getParent());
            if (System.getProperty(STARTED) == null) {
                System.setProperty(STARTED, "true");
                Files.writeString(FILE, "", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                        StandardOpenOption.TRUNCATE_EXISTING);
            }
            Files.writeString(FILE, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
