/** A ride's odometer reading or distance as a renter reads it: '24,970 mi'; `missing` when the car gave none. */
export const formatMiles = (n: number | null, missing = '—') => (n === null ? missing : `${Math.round(n).toLocaleString('en-US')} mi`);

/** A battery level (a fraction) as a percentage: '80%'; `missing` when the car gave none. */
export const formatBattery = (n: number | null, missing = '—') => (n === null ? missing : `${Math.round(n * 100)}%`);
