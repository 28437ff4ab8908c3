package io.jobmon.events.status;

import io.jobmon.contracts.i18n.Catalogue;
import io.jobmon.contracts.i18n.Locales;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.i18n.Texts;

/**
 * The English rendering of the status texts jobmon writes (the common catalogue's {@code status.*}): a transition
 * carries both, the key for readers of another language and the English text for those without the catalogue.
 */
final class StatusTexts {

    private static final Texts ENGLISH = new Texts(Catalogue.load(StatusTexts.class.getClassLoader()), Locales.EN);

    private StatusTexts() {
    }

    static String english(Text text) {
        return ENGLISH.text(text);
    }
}
