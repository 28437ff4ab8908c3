package io.jobmon.testsupport;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.regex.Pattern;

/**
 * The suite's layering, one way: resource → service → repository. Checked by every module's {@code LayersTest}
 * on its compiled main classes (tests excluded), with ArchUnit.
 * <ul>
 * <li>a <b>repository</b> (a class in a {@code ..repository..} package or named {@code *Repository}) does not
 * depend on a service;</li>
 * <li>a <b>service</b> (a class in a {@code ..service..} package or named {@code *Service}) does not depend on a
 * REST type of its module: a class in a {@code ..rest..} or {@code ..api..} package under the module's root, or
 * named {@code *Resource}. The shared API types of contracts ({@code io.jobmon.contracts.api}: pages, cursors,
 * limits; the problem types) are not REST types of a service: a service answers with them;</li>
 * <li>the packages under a root have no cycles (contracts' rule; a service may check it too).</li>
 * </ul>
 */
public final class LayerRules {

    private LayerRules() {
    }

    /** The module's main classes under {@code root} (no test classes, no jars). */
    public static JavaClasses mainClasses(String root) {
        return new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages(root);
    }

    public static DescribedPredicate<JavaClass> repositories() {
        return describe("repositories (..repository.. or *Repository)",
                c -> inPackage(c, "repository") || named(c, "Repository"));
    }

    public static DescribedPredicate<JavaClass> services() {
        return describe("services (..service.. or *Service)",
                c -> inPackage(c, "service") || named(c, "Service"));
    }

    /** REST resources and their DTOs of the module under {@code root}. */
    public static DescribedPredicate<JavaClass> restTypes(String root) {
        return describe("REST types of " + root + " (..rest.., ..api.. or *Resource)",
                c -> c.getPackageName().startsWith(root)
                        && (inPackage(c, "rest") || inPackage(c, "api") || named(c, "Resource")));
    }

    /** A repository reads and writes rows; it never calls up into a service. */
    public static ArchRule repositoriesDoNotDependOnServices() {
        return noClasses().that(repositories()).should().dependOnClassesThat(services().and(DescribedPredicate.not(repositories())))
                .because("layers go one way: resource → service → repository");
    }

    /** A service works on the model; the REST layer maps it to and from the wire. */
    public static ArchRule servicesDoNotDependOnRestTypes(String root) {
        return noClasses().that(services()).should().dependOnClassesThat(restTypes(root).and(DescribedPredicate.not(services())))
                .because("layers go one way: resource → service → repository");
    }

    /** No two packages under {@code root} depend on each other, directly or through others. */
    public static ArchRule noPackageCycles(String root) {
        return slices().matching(root + ".(*)..").should().beFreeOfCycles();
    }

    /** Both layer rules on the module's main classes under {@code root}. */
    public static void checkLayers(String root) {
        JavaClasses classes = mainClasses(root);
        repositoriesDoNotDependOnServices().allowEmptyShould(true).check(classes);
        servicesDoNotDependOnRestTypes(root).allowEmptyShould(true).check(classes);
    }

    /** The package cycle rule on the module's main classes under {@code root}. */
    public static void checkNoPackageCycles(String root) {
        noPackageCycles(root).check(mainClasses(root));
    }

    private static boolean inPackage(JavaClass c, String segment) {
        return Pattern.compile("(^|\\.)" + segment + "(\\.|$)").matcher(c.getPackageName()).find();
    }

    private static boolean named(JavaClass c, String suffix) {
        return topLevel(c).getSimpleName().endsWith(suffix);
    }

    private static JavaClass topLevel(JavaClass c) {
        JavaClass t = c;
        while (t.getEnclosingClass().isPresent()) {
            t = t.getEnclosingClass().get();
        }
        return t;
    }
}
