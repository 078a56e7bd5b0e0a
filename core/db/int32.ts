/** The range of the 32-bit columns that hold ids and counts on both databases. */
export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;
