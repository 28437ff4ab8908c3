package io.jobmon.contracts.http;

import io.jobmon.contracts.problem.ApiException;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.UriInfo;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * The one rule on query parameters of every service: a parameter the endpoint does not take is a 400 naming it
 * ({@code errors[0].field} = the parameter, {@code code} {@code field.unknown-parameter} listing the ones it takes),
 * as an unknown body field is — {@code ?statuss=FAILED} must not quietly answer every job. For a REST resource the
 * names are read from its method ({@code @QueryParam}, {@code @RestQuery}, and those of its {@code @BeanParam}
 * classes), once per method; a Vert.x route names its own and calls {@link #check(Collection, Set)}. The gateway
 * forwards {@code /api} requests as they are, so each service judges its own; OIDC callbacks and
 * {@code /q/*} never reach a resource of this rule.
 */
public class QueryParameters {

    private static final Map<Method, Set<String>> TAKEN = new ConcurrentHashMap<>();

    /** After routing, before the resource method runs (and before its parameters are converted). */
    @ServerRequestFilter
    public void refuseUnknown(ResourceInfo resource, UriInfo uri) {
        Method method = resource.getResourceMethod();
        if (method != null && !uri.getQueryParameters().isEmpty()) {
            check(uri.getQueryParameters().keySet(), TAKEN.computeIfAbsent(method, QueryParameters::names));
        }
    }

    /** A 400 for the first of {@code given} that is not in {@code taken}. */
    public static void check(Collection<String> given, Set<String> taken) {
        for (String name : new TreeSet<>(given)) {
            if (!taken.contains(name)) {
                throw taken.isEmpty() ? ApiException.invalid(name, "field.no-parameters")
                        : ApiException.invalid(name, "field.unknown-parameter", String.join(", ", new TreeSet<>(taken)));
            }
        }
    }

    /** The query parameter names a resource method takes. */
    static Set<String> names(Method method) {
        Set<String> out = new TreeSet<>();
        for (Parameter p : method.getParameters()) {
            add(p, p.getName(), out);
            if (p.isAnnotationPresent(BeanParam.class)) {
                bean(p.getType(), out);
            }
        }
        return Set.copyOf(out);
    }

    private static void bean(Class<?> type, Set<String> out) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                add(f, f.getName(), out);
                if (f.isAnnotationPresent(BeanParam.class)) {
                    bean(f.getType(), out);
                }
            }
            for (Method m : c.getDeclaredMethods()) {
                add(m, m.getName(), out);
            }
        }
        if (type.isRecord()) {
            for (var component : type.getRecordComponents()) {
                add(component, component.getName(), out);
            }
        }
    }

    private static void add(AnnotatedElement e, String ownName, Set<String> out) {
        QueryParam q = e.getAnnotation(QueryParam.class);
        if (q != null) {
            out.add(q.value());
        }
        RestQuery r = e.getAnnotation(RestQuery.class);
        if (r != null) {
            out.add(r.value().isEmpty() ? ownName : r.value());
        }
    }
}
