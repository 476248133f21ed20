import autocannon from "autocannon"

export { signInFirstAdmin, startProduct } from "../support/product.ts"

/** autocannon, 10 connections for 10 s, as every issue asks. */
export const load = (url: string, token?: string) =>
  autocannon({
    url,
    connections: 10,
    duration: 10,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` }
  })
