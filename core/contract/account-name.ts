// How an account is named to a person. The account every data folder starts with is `default` in the core,
// the CLI and the /v1 API; a clerk reads it in the UI language instead (issue #9). Other accounts are named
// by the people who created them and are shown as they are. Shared by the renderer and the desktop's
// native notification, so the two never name it differently.

export const DEFAULT_ACCOUNT_NAME = 'default';

export const DEFAULT_ACCOUNT_LABEL = { ru: 'Основной', en: 'Main' } as const;

export function accountLabel(name: string, language: keyof typeof DEFAULT_ACCOUNT_LABEL): string {
  return name === DEFAULT_ACCOUNT_NAME ? DEFAULT_ACCOUNT_LABEL[language] : name;
}
