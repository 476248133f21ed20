let dateFormat: Intl.DateTimeFormat | undefined

/**
 * The console's short date, from one formatter made once: building one costs the first screen
 * about 20 ms of ICU set-up (`toLocaleDateString` builds one per call), so start-up makes it
 * while the screen's code is still downloading (src/app/boot.ts).
 */
export const shortDate = (value: string | Date): string => (dateFormat ??= new Intl.DateTimeFormat()).format(new Date(value))

/** Makes the formatter now, while the main thread has nothing better to do. */
export const prepareDates = (): void => void (dateFormat ??= new Intl.DateTimeFormat())
