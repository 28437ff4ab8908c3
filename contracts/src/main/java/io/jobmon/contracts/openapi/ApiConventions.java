package io.jobmon.contracts.openapi;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;
import org.eclipse.microprofile.openapi.models.security.SecurityScheme;

/**
 * What every {@code /api} operation of every service has in common, added to the service's OpenAPI document so
 * that each one declares it truthfully without repeating it on every method ({@code mp.openapi.filter}):
 * <ul>
 * <li>the bearer security scheme, required by every operation (the only scheme);</li>
 * <li>times as RFC 3339 UTC to the millisecond;</li>
 * <li>the {@code Accept-Language} header ({@code zh-CN} or {@code en}) that picks the language of its texts;</li>
 * <li>the errors the shared HTTP layer may answer for any operation — 400 (malformed URI, NUL, bad parameters),
 * 401, 403 (no platform role), 429 (the gateway's rate limit), 503 (a dependency is down) — plus 404 where the
 * path names a resource, 413 and 415 where it takes a body — each an {@code application/problem+json} body of the
 * {@code Problem} schema. Errors an operation declares itself (409, 422...) get the same body.</li>
 * </ul>
 */
public class ApiConventions implements OASFilter {

    public static final String PROBLEM = "Problem";
    public static final String FIELD_ERROR = "FieldError";
    public static final String BEARER = "bearer";
    private static final String PROBLEM_JSON = "application/problem+json";

    /** In code order (a Map.of would change the generated documents' order from one JVM run to the next). */
    private static final Map<String, String> ALWAYS = new java.util.TreeMap<>(Map.of(
            "400", "invalid request: a parameter (also one the operation does not take), the body or the URI (the problem "
                    + "names each field)",
            "401", "no valid bearer token (missing, expired, forged, another audience)",
            "403", "the caller lacks the platform role, or may see the resource but not do this to it",
            "429", "too many requests from this caller (the gateway's rate limit); see Retry-After",
            "503", "a dependency of the service is down; see Retry-After"));

    @Override
    public void filterOpenAPI(OpenAPI api) {
        Components components = api.getComponents() == null ? OASFactory.createComponents() : api.getComponents();
        api.setComponents(components);
        components.addSchema(FIELD_ERROR, fieldError());
        components.addSchema(PROBLEM, problem());
        if (components.getSecuritySchemes() != null) {
            // One scheme: Quarkus' automatic one names the OIDC server's URL, which differs per deployment.
            components.getSecuritySchemes().keySet().stream().toList().forEach(components::removeSecurityScheme);
        }
        components.addSecurityScheme(BEARER, OASFactory.createSecurityScheme().type(SecurityScheme.Type.HTTP)
                .scheme("bearer").bearerFormat("JWT")
                .description("An access token of the platform's OIDC provider with the audience jobmon"));
        if (components.getSchemas() != null && components.getSchemas().get("Instant") != null) {
            components.getSchemas().get("Instant").examples(List.of("2026-01-31T08:00:00.000Z"))
                    .description("RFC 3339 in UTC, to the millisecond");
        }
        if (api.getPaths() == null || api.getPaths().getPathItems() == null) {
            return;
        }
        api.getPaths().getPathItems().forEach((path, item) -> {
            if (path.startsWith("/api/")) {
                item.getOperations().forEach((method, op) -> apply(path, method, op));
            }
        });
    }

    private void apply(String path, PathItem.HttpMethod method, Operation op) {
        op.setSecurity(List.of(OASFactory.createSecurityRequirement().addScheme(BEARER)));
        boolean hasLanguage = op.getParameters() != null && op.getParameters().stream()
                .anyMatch(p -> "Accept-Language".equalsIgnoreCase(p.getName()));
        if (!hasLanguage) {
            op.addParameter(OASFactory.createParameter().name("Accept-Language").in(Parameter.In.HEADER)
                    .description("language of the texts: zh-CN (also zh, zh-Hans) or en; default as configured")
                    .schema(OASFactory.createSchema().addType(Schema.SchemaType.STRING)).example("zh-CN"));
        }
        APIResponses responses = op.getResponses() == null ? OASFactory.createAPIResponses() : op.getResponses();
        op.setResponses(responses);
        Map<String, String> errors = new LinkedHashMap<>(ALWAYS);
        if (path.contains("{")) {
            errors.put("404", "no such resource, or the caller may not see it");
        }
        if (op.getRequestBody() != null) {
            errors.put("413", "the body is larger than the endpoint accepts");
            errors.put("415", "the body is not UTF-8 JSON");
        }
        errors.forEach((code, description) -> {
            if (!responses.hasAPIResponse(code)) {
                responses.addAPIResponse(code, OASFactory.createAPIResponse().description(description));
            }
        });
        responses.getAPIResponses().forEach((code, response) -> {
            if (code.startsWith("4") || code.startsWith("5")) {
                withProblemBody(response);
            }
        });
    }

    private static void withProblemBody(APIResponse response) {
        Content content = response.getContent() == null ? OASFactory.createContent() : response.getContent();
        content.getMediaTypes().keySet().stream().filter(m -> !m.equals(PROBLEM_JSON)).toList()
                .forEach(content::removeMediaType);
        content.addMediaType(PROBLEM_JSON, OASFactory.createMediaType()
                .schema(OASFactory.createSchema().ref("#/components/schemas/" + PROBLEM)));
        response.setContent(content);
        if (response.getDescription() == null) {
            response.setDescription("an RFC 9457 problem");
        }
    }

    private static Schema string(String description) {
        return OASFactory.createSchema().addType(Schema.SchemaType.STRING).description(description);
    }

    private static Schema fieldError() {
        return OASFactory.createSchema().addType(Schema.SchemaType.OBJECT)
                .description("one invalid field or parameter of a request")
                .addProperty("field", string("the JSON path of the field or the parameter's name, e.g. "
                        + "resources.gpusPerReplica, tags[2], limit"))
                .addProperty("message", string("what is wrong with it, in the reader's language"))
                .addProperty("code", string("the rule it breaks, stable for clients, e.g. field.limit"))
                .required(List.of("field", "message"));
    }

    private static Schema problem() {
        return OASFactory.createSchema().addType(Schema.SchemaType.OBJECT)
                .description("RFC 9457 problem details: every error of the API")
                .addProperty("type", string("a jobmon URI naming the kind of problem, e.g. "
                        + "https://jobmon.io/problems/not-found; never translated").format("uri"))
                .addProperty("title", string("the status, in the reader's language"))
                .addProperty("status", OASFactory.createSchema().addType(Schema.SchemaType.INTEGER))
                .addProperty("detail", string("what is wrong, in the reader's language"))
                .addProperty("instance", string("the path of the request"))
                .addProperty("errors", OASFactory.createSchema().addType(Schema.SchemaType.ARRAY)
                        .items(OASFactory.createSchema().ref("#/components/schemas/" + FIELD_ERROR)))
                .addProperty("requestId", string("the X-Request-Id of the request, to find it in the logs"))
                .required(List.of("type", "title", "status"));
    }

}
