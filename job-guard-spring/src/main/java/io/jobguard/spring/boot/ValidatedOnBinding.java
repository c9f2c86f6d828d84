package io.jobguard.spring.boot;

import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * A {@code jobguard.*} properties record that Spring Boot checks when it binds it, at startup: Boot validates a
 * constructor-bound type that implements {@link Validator} with the bound instance itself. Every check lives in
 * {@link JobGuardPropertiesValidator}; the records only opt in.
 */
interface ValidatedOnBinding extends Validator {

    @Override
    default boolean supports(Class<?> type) {
        return getClass().isAssignableFrom(type);
    }

    @Override
    default void validate(Object target, Errors errors) {
        JobGuardPropertiesValidator.validate(target, errors);
    }
}
