export interface PageRequest {
  /** 1-based. */
  readonly page: number;
  readonly perPage: number;
}

export interface PageOf<A> {
  readonly items: readonly A[];
  readonly total: number;
}
