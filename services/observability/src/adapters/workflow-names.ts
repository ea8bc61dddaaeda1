/** Names of workflows by id; ids it does not know are left out (the lists then show the id). */
export interface WorkflowNameReader {
  names(ids: string[]): Promise<Map<string, string>>;
  close(): void;
}

/** Until workflows answer `GetWorkflowNames`: no names (the id stands in for the name). */
export const noWorkflowNames: WorkflowNameReader = {
  names: async () => new Map(),
  close: () => undefined,
};
