import type { Messages } from '../../catalogue.js';
import type { messages as english } from '../en/messages.js';

/** Portuguese: e-mails and SMS to signers and to the people of a Site. */
export const messages: Messages<typeof english> = {
  'email.hello': 'Olá,',
  'email.aSite': 'Um site',
  'email.contract': 'Contrato {id}',
  'email.list.none': 'um documento',
  'email.list.more': '{names} e mais {count}',
  'email.list.and': '{names} e {last}',
  'email.documents': '{count, plural, one {um documento} other {# documentos}}',
  'email.sent.subject': '{site} enviou {names} para você assinar',
  'email.sent.lead': '{site} enviou {documents} para você assinar:',
  'email.reminder.subject': 'Lembrete: {site} aguarda sua assinatura em {names}',
  'email.reminder.ownSubject': 'Lembrete: {subject}',
  'email.reminder.lastDaySubject': 'Último dia para assinar: {site} aguarda sua assinatura em {names}',
  'email.reminder.lastDayOwnSubject': 'Último dia para assinar: {subject}',
  'email.reminder.lead': '{site} ainda aguarda sua assinatura em {documents}:',
  'email.reviewHere': 'Revise e assine aqui:',
  'email.reviewButton': 'Revisar e assinar',
  'email.orOpen': 'Ou abra este link:',
  'email.signBefore': 'Assine antes de {date}.',
  'email.message': 'Uma mensagem de {site}:',
  'email.askedBy': '{who} pediu que você assine no lugar dessa pessoa.',
  'email.note': 'Uma nota de {who}:',
  'email.personal': 'Este link é pessoal: não o encaminhe.',
  'email.code.subject': 'Seu código para assinar para {site}: {code}',
  'email.code.lead': 'Seu código para abrir o documento que {site} enviou para você:',
  'email.code.until': 'Ele funciona uma vez, até {until}. Se você não o pediu, ignore este e-mail.',
  'email.code.tenMinutes': 'daqui a 10 minutos',
  'email.completed.subject': 'Concluído: {names} foi assinado por todos',
  'email.completed.lead': 'Todos assinaram {names}, que {site} enviou para assinatura.',
  'email.completed.download':
    'Baixe sua cópia do documento assinado (PDF) pelo link abaixo. Ele funciona até {until}; guarde o arquivo em um lugar seguro.',
  'email.completed.thirtyDays': 'por 30 dias',
  'email.completed.link': 'Baixar sua cópia (PDF)',
  'email.declined.subject': 'Recusado: {names}',
  'email.declined.lead':
    '{who} recusou-se a assinar {names}, que {site} enviou para assinatura. A solicitação foi encerrada: você não precisa fazer mais nada.',
  'email.declined.reason': 'O motivo informado: {reason}',
  'email.cancelled.subject': 'Cancelado: {names}',
  'email.cancelled.lead':
    '{site} cancelou a solicitação de assinatura de {names}. Você não precisa fazer mais nada e seu link de assinatura não funciona mais.',
  'email.cancelled.reason': 'Motivo informado: {reason}',
  'email.replaced.subject': 'Não é mais necessário: {names}',
  'email.replaced.lead':
    '{site} pediu a outra pessoa que assine {names} em seu lugar, por isso seu link de assinatura não funciona mais.',
  'embedded.used.title': 'Este link de assinatura já foi usado',
  'embedded.used.message': 'Para sua segurança, um link de assinatura abre apenas uma vez.',
  'embedded.again.detail':
    'Volte à página de onde você veio e comece a assinar novamente: um novo link será aberto.',
  'embedded.expired.title': 'Este link de assinatura expirou',
  'embedded.expired.message': 'Links de assinatura abertos dentro de outro site funcionam por 5 minutos.',
  'embedded.unknown.title': 'Este link não é válido',
  'embedded.unknown.message': 'Não há nenhum documento para assinar neste link.',
  'embedded.unknown.detail': 'Volte à página de onde você veio e comece a assinar novamente.',
  'email.sender.completed.lead':
    'Todos assinaram {names}, que você enviou para assinatura a partir de {site}.',
  'email.sender.completed.where':
    'O documento assinado (PDF) está na página da solicitação, com sua trilha de auditoria.',
  'email.sender.declined.lead':
    '{who} recusou-se a assinar {names}, que você enviou para assinatura a partir de {site}. A solicitação foi encerrada.',
  'email.sender.expired.subject': 'Expirado sem todas as assinaturas: {names}',
  'email.sender.expired.lead':
    '{names}, que você enviou para assinatura a partir de {site}, expirou antes que todos assinassem: seus links de assinatura não funcionam mais.',
  'email.sender.expired.again':
    'Para enviá-lo novamente, abra a solicitação e copie-a para um novo rascunho.',
  'email.sender.link': 'Abrir a solicitação',
  'email.sender.reassigned.subject': 'Outra pessoa vai assinar: {names}',
  'email.sender.reassigned.lead':
    '{from} pediu a {to} que assine {names} em seu lugar, como permitia a solicitação que você enviou de {site}. {to} recebeu o próprio link por e-mail.',
  'sms.sent': '{site} enviou {names} para você assinar. Assine aqui: {url}',
  'sms.reminder': 'Lembrete: {site} aguarda sua assinatura em {names}. Assine aqui: {url}',
  'sms.reminder.lastDay':
    'Último dia para assinar: {site} aguarda sua assinatura em {names}. Assine aqui: {url}',
  'sms.completed': 'Todos assinaram {names}. Sua cópia: {url}',
  'sms.declined': '{who} recusou-se a assinar {names}.',
  'sms.cancelled':
    '{site} cancelou a solicitação de assinatura de {names}. Você não precisa fazer mais nada.',
  'sms.replaced':
    '{site} pediu a outra pessoa que assine {names} em seu lugar. Nada mais é necessário de você.',
  'sms.code': '{code} é seu código para assinar para {site}. Vale uma vez, por 10 minutos.',
};
