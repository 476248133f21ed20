let dateFormat: Intl.DateTimeFormat | undefined

/**
 * The console's short date, from one formatter made once: `toLocaleDateString` builds one per
 * call, each paying ICU's set-up.
 */
export const shortDate = (value: string | Date): string => (dateFormat ??= new Intl.DateTimeFormat()).format(new Date(value))
