package io.jobmon.contracts.i18n;

import io.jobmon.contracts.problem.Problem;
import io.jobmon.testsupport.CatalogueChecks;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The common catalogue is complete in English and Chinese: every problem title of a status the suite answers, the
 * shared field messages, and an explanation of every reason code.
 */
class CommonCatalogueTest extends CatalogueChecks {

    @Override
    protected String baseName() {
        return COMMON;
    }

    @Override
    protected List<String> readBy() {
        return List.of(COMMON);
    }

    @Override
    protected Set<String> requiredKeys() {
        Set<String> keys = new TreeSet<>();
        Reasons.codes().forEach(c -> keys.add(Reasons.KEY_PREFIX + c));
        for (int status : new int[] {400, 401, 403, 404, 405, 406, 409, 410, 413, 414, 415, 422, 429, 431, 500, 503,
                504}) {
            keys.add("problem.title." + status);
            Problem.typeFor(status); // every status the suite types has a title
        }
        for (String t : new String[] {"string", "integer", "number", "boolean", "time", "array", "object", "enum",
                "value"}) {
            keys.add("json.expected." + t);
            keys.add("json.body." + t);
        }
        return keys;
    }

    @Override
    protected Set<String> untranslatedKeys() {
        return Set.of();
    }
}
