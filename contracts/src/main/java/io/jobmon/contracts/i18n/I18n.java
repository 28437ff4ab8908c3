package io.jobmon.contracts.i18n;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import io.quarkus.arc.InstanceHandle;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.Locale;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The language of every human-readable text a service answers with: the service's catalogue over the common one
 * ({@link Catalogue}), the reader's language from {@code Accept-Language} ({@link Locales}) and the default for a
 * request that names none. Machine-readable fields (statuses, reason codes, problem {@code type}s) never change
 * with the language.
 */
@Singleton
public class I18n {

    public static final String ACCEPT_LANGUAGE = "Accept-Language";

    private final Catalogue catalogue;
    private final Locale defaultLocale;

    /**
     * @param defaultLocale {@code jobmon.i18n.default-locale}: the language of a request whose
     *        {@code Accept-Language} names neither English nor Chinese (or that sends none): {@code en} or
     *        {@code zh-CN}
     */
    @Inject
    public I18n(@ConfigProperty(name = "jobmon.i18n.default-locale", defaultValue = "en") String defaultLocale) {
        this(Catalogue.load(Thread.currentThread().getContextClassLoader()), Locales.parse(defaultLocale));
    }

    public I18n(Catalogue catalogue, Locale defaultLocale) {
        this.catalogue = catalogue;
        this.defaultLocale = defaultLocale;
    }

    /** English by default, the catalogues the current class loader sees (plain unit tests). */
    public static I18n defaults() {
        return new I18n(Catalogue.load(Thread.currentThread().getContextClassLoader()), Locales.EN);
    }

    /** The service's bean, or {@link #defaults()} where there is no container (unit tests). */
    public static I18n current() {
        ArcContainer arc = Arc.container();
        if (arc == null) {
            return defaults();
        }
        InstanceHandle<I18n> h = arc.instance(I18n.class);
        return h.isAvailable() ? h.get() : defaults();
    }

    public Catalogue catalogue() {
        return catalogue;
    }

    public Locale defaultLocale() {
        return defaultLocale;
    }

    public Locale locale(String acceptLanguage) {
        return Locales.pick(acceptLanguage, defaultLocale);
    }

    public Texts texts(Locale locale) {
        return new Texts(catalogue, locale);
    }

    public Texts texts(String acceptLanguage) {
        return texts(locale(acceptLanguage));
    }

    /** The texts of the request being served (its {@code Accept-Language}); the default outside a request. */
    public Texts forRequest() {
        return texts(requestLanguage());
    }

    /** The current request's {@code Accept-Language}, or null outside a request. */
    public static String requestLanguage() {
        ArcContainer arc = Arc.container();
        if (arc == null || !arc.requestContext().isActive()) {
            return null;
        }
        InstanceHandle<CurrentVertxRequest> h = arc.instance(CurrentVertxRequest.class);
        if (!h.isAvailable() || h.get().getCurrent() == null) {
            return null;
        }
        return h.get().getCurrent().request().getHeader(ACCEPT_LANGUAGE);
    }
}
