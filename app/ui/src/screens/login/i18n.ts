import { defineMessages } from '../../i18n';

export const messages = defineMessages(
  {
    'login.title': 'ログイン',
    'login.contract': '契約',
    'login.contractId': '契約ID',
    'login.staffCode': 'スタッフコード',
    'login.password': 'パスワード',
    'login.submit': 'ログイン',
    'login.submitting': 'ログイン中…',
    'login.failed': 'スタッフコードまたはパスワードが正しくありません。',
    'login.tooMany': 'ログインの失敗が続いたため、しばらくログインできません。時間をおいてやり直してください。',
    'login.loggedOut': 'ログアウトしました。',
    'login.unknownContract': 'この契約IDはこのサーバーにありません。',
  },
  {
    'login.title': 'Log in',
    'login.contract': 'Contract',
    'login.contractId': 'Contract ID',
    'login.staffCode': 'Staff code',
    'login.password': 'Password',
    'login.submit': 'Log in',
    'login.submitting': 'Logging in…',
    'login.failed': 'The staff code or password is incorrect.',
    'login.tooMany': 'Too many failed logins. Wait a while and try again.',
    'login.loggedOut': 'You have logged out.',
    'login.unknownContract': 'There is no contract with this ID on this server.',
  },
);
