// Hand-written Brazilian word lists for the fixture: people, shops, streets and cities.
// Every character fits LATIN1 (the ERP's encoding), and the accents are there on purpose:
// they are what breaks a UTF8-only assumption somewhere downstream.

// biome-ignore format: a word list reads better packed
export const FIRST_NAMES_F = [
  'Maria', 'Ana', 'Francisca', 'Antônia', 'Adriana', 'Juliana', 'Márcia', 'Fernanda', 'Patrícia', 'Aline',
  'Sandra', 'Camila', 'Amanda', 'Bruna', 'Jéssica', 'Letícia', 'Júlia', 'Luciana', 'Vanessa', 'Mariana',
  'Conceição', 'Fátima', 'Cláudia', 'Simone', 'Débora', 'Lúcia', 'Rosângela', 'Tânia', 'Vitória', 'Beatriz',
  'Gabriela', 'Raquel', 'Sônia', 'Helena', 'Cecília', 'Inês', 'Luíza', 'Joana', 'Graça', 'Aparecida',
] as const;

// biome-ignore format: a word list reads better packed
export const FIRST_NAMES_M = [
  'José', 'João', 'Antônio', 'Francisco', 'Carlos', 'Paulo', 'Pedro', 'Lucas', 'Luiz', 'Marcos',
  'Luís', 'Gabriel', 'Rafael', 'Daniel', 'Marcelo', 'Bruno', 'Eduardo', 'Felipe', 'Raimundo', 'Rodrigo',
  'Sebastião', 'Fábio', 'Márcio', 'Cícero', 'Ângelo', 'Vinícius', 'Caio', 'Mário', 'Severino', 'Benedito',
  'Otávio', 'Rogério', 'Sérgio', 'André', 'Júlio', 'César', 'Cláudio', 'Flávio', 'Lázaro', 'Joaquim',
] as const;

// biome-ignore format: a word list reads better packed
export const SURNAMES = [
  'Silva', 'Santos', 'Oliveira', 'Souza', 'Rodrigues', 'Ferreira', 'Alves', 'Pereira', 'Lima', 'Gomes',
  'Costa', 'Ribeiro', 'Martins', 'Carvalho', 'Almeida', 'Lopes', 'Soares', 'Fernandes', 'Vieira', 'Barbosa',
  'Rocha', 'Dias', 'Nascimento', 'Andrade', 'Moreira', 'Nunes', 'Marques', 'Machado', 'Mendes', 'Freitas',
  'Cardoso', 'Ramos', 'Gonçalves', 'Santana', 'Teixeira', 'Araújo', 'Conceição', 'Magalhães', 'Falcão', 'Brandão',
  'Assunção', 'Simões', 'Guimarães', 'Sá', 'Damião', 'Galvão', 'Jordão', 'Estêvão', 'Romão', 'Patrício',
] as const;

/** Surnames that take a particle: "Maria da Conceição", "João dos Santos". */
export const PARTICLE_SURNAMES = [
  'da Silva',
  'dos Santos',
  'de Oliveira',
  'de Souza',
  'da Conceição',
  'da Costa',
  'de Jesus',
  'dos Anjos',
  'de Assunção',
  'da Cruz',
  'de Araújo',
  'dos Reis',
  'da Paixão',
  'de Lima',
  'do Nascimento',
] as const;

// biome-ignore format: a word list reads better packed
export const SHOP_KINDS = [
  'Mercadinho', 'Supermercado', 'Mercearia', 'Padaria', 'Panificadora', 'Açougue', 'Empório', 'Minimercado',
  'Armazém', 'Quitanda', 'Hortifrúti', 'Lanchonete', 'Bar e Mercearia', 'Restaurante', 'Conveniência',
  'Atacarejo', 'Casa de Carnes', 'Sacolão', 'Farmácia', 'Distribuidora', 'Comercial', 'Depósito de Bebidas',
] as const;

// biome-ignore format: a word list reads better packed
export const SHOP_NAMES = [
  'São Jorge', 'Santa Luzia', 'Nossa Senhora Aparecida', 'São José', 'Santo Antônio', 'São Francisco',
  'Bom Preço', 'Boa Vista', 'Pão de Mel', 'Estrela', 'Primavera', 'Bela Vista', 'Central', 'Popular',
  'Economia', 'Real', 'União', 'Progresso', 'Ipiranga', 'Paraíso', 'Esperança', 'Aliança', 'Avenida',
  'Bom Jesus', 'Irmãos Gonçalves', 'Irmãos Araújo', 'Família Simões', 'Dois Irmãos', 'Três Marias',
  'Pão Nosso', 'Sabor do Trigo', 'Cantinho', 'Vitória', 'Conquista', 'Jardim', 'Nova Era', 'Boa Esperança',
  'Sol Nascente', 'Ponto Certo', 'Preço Bom', 'Guanabara', 'Maracanã', 'Pioneiro', 'Sertão', 'Ribeirão',
  'Glória', 'Alvorada', 'Canaã', 'Galileia', 'Brasília', 'Cristo Rei', 'Santa Mônica', 'Coração de Jesus',
  'do Povo', 'da Família', 'do Bairro', 'da Praça', 'da Esquina', 'Imperial', 'Estação', 'Rio Branco',
] as const;

// biome-ignore format: a word list reads better packed
/** Suffixes a company named after its owner takes ("José Falcão ME"). */
export const OWNER_COMPANY_SUFFIXES = [
  ['ME', 5],
  ['Ltda', 4],
  ['Comércio de Alimentos Ltda', 3],
  ['EIRELI', 2],
] as const;

export const COMPANY_SUFFIXES = [
  ['Ltda', 10],
  ['ME', 5],
  ['Comércio de Alimentos Ltda', 4],
  ['Comércio Varejista Ltda', 3],
  ['EIRELI', 2],
  ['Ltda EPP', 2],
  ['S.A.', 1],
] as const;

/** For suppliers (tipo 'F'): manufacturers and wholesalers. */
// biome-ignore format: a word list reads better packed
export const SUPPLIER_KINDS = [
  'Indústria de Alimentos', 'Laticínios', 'Frigorífico', 'Bebidas', 'Distribuidora', 'Indústria Química',
  'Cosméticos', 'Moinho', 'Torrefação', 'Cervejaria', 'Embalagens', 'Conservas', 'Higiene e Limpeza',
] as const;

// biome-ignore format: a word list reads better packed
export const STREET_TYPES = [
  ['Rua', 12],
  ['Avenida', 4],
  ['Travessa', 1],
  ['Praça', 1],
  ['Alameda', 1],
  ['Estrada', 1],
] as const;

// biome-ignore format: a word list reads better packed
export const STREET_NAMES = [
  'Barão de Itapetininga', 'da Conceição', 'São Bento', 'Brasil', 'Sete de Setembro', 'XV de Novembro',
  'Dom Pedro II', 'Getúlio Vargas', 'Tiradentes', 'Marechal Deodoro', 'Floriano Peixoto', 'Conde da Boa Vista',
  'da Aurora', 'do Imperador', 'Benjamin Constant', 'José Bonifácio', 'Rui Barbosa', 'João Pessoa',
  'Santos Dumont', 'Duque de Caxias', 'Visconde de Mauá', 'Frei Caneca', 'das Flores', 'das Palmeiras',
  'dos Andradas', 'Caxangá', 'Padre Anchieta', 'Cônego Barata', 'Monteiro Lobato', 'São João',
  'Princesa Isabel', 'Barão do Rio Branco', 'Senador Salgado Filho', 'Castro Alves', 'Machado de Assis',
  'Guararapes', 'Amélia', 'Jequitinhonha', 'Pará', 'Paraná', 'Ceará', 'Maranhão', 'Piauí', 'Goiás',
  'Antônio Falcão', 'Mascarenhas de Morais', 'Norte', 'Abolição', 'Independência', 'Liberdade',
  'Coronel Fabriciano', 'Professor José Cândido', 'Doutor Arnaldo', 'Bernardo Vieira de Melo', 'Agamenon Magalhães',
] as const;

// biome-ignore format: a word list reads better packed
export const DISTRICTS = [
  'Centro', 'Jardim América', 'Vila Mariana', 'Boa Viagem', 'Casa Amarela', 'Mooca', 'Brás', 'Santana',
  'Penha', 'Tatuapé', 'Ipiranga', 'Lapa', 'Pinheiros', 'Madalena', 'Graças', 'Várzea', 'São José',
  'Vila Nova', 'Jardim São Paulo', 'Parque São Lucas', 'Cidade Nova', 'Água Branca', 'Bela Vista',
  'Liberdade', 'Aflitos', 'Espinheiro', 'Encruzilhada', 'Imbiribeira', 'Afogados', 'Jardim Paulista',
  'Vila Prudente', 'Cambuci', 'Barra Funda', 'Jardim Botânico', 'Vila Operária', 'Cohab', 'Jardim Primavera',
  'Vila São João', 'Conjunto Habitacional', 'Distrito Industrial', 'Alto da Boa Vista', 'Parque Industrial',
] as const;

export const COMPLEMENTS = [
  'Loja 1',
  'Loja 2',
  'Sala 101',
  'Galpão 3',
  'Box 12',
  'Térreo',
  'Fundos',
  'Bloco B',
] as const;

export interface City {
  name: string;
  uf: string;
  /** Telephone area code (DDD). */
  ddd: string;
  /** First and last five-digit CEP prefix that the Correios assign to the city. */
  cep: readonly [number, number];
}

/** Cities around tenant 1's head office in São Paulo. */
// biome-ignore format: a word list reads better packed
export const CITIES_SOUTHEAST: readonly City[] = [
  { name: 'São Paulo', uf: 'SP', ddd: '11', cep: [1000, 5999] },
  { name: 'Guarulhos', uf: 'SP', ddd: '11', cep: [7000, 7399] },
  { name: 'Osasco', uf: 'SP', ddd: '11', cep: [6000, 6299] },
  { name: 'Santo André', uf: 'SP', ddd: '11', cep: [9000, 9299] },
  { name: 'São Bernardo do Campo', uf: 'SP', ddd: '11', cep: [9600, 9899] },
  { name: 'Campinas', uf: 'SP', ddd: '19', cep: [13000, 13139] },
  { name: 'Jundiaí', uf: 'SP', ddd: '11', cep: [13200, 13219] },
  { name: 'Piracicaba', uf: 'SP', ddd: '19', cep: [13400, 13427] },
  { name: 'Santos', uf: 'SP', ddd: '13', cep: [11000, 11099] },
  { name: 'São José dos Campos', uf: 'SP', ddd: '12', cep: [12200, 12248] },
  { name: 'Sorocaba', uf: 'SP', ddd: '15', cep: [18000, 18109] },
  { name: 'Ribeirão Preto', uf: 'SP', ddd: '16', cep: [14000, 14114] },
  { name: 'Bauru', uf: 'SP', ddd: '14', cep: [17000, 17099] },
  { name: 'São José do Rio Preto', uf: 'SP', ddd: '17', cep: [15000, 15099] },
  { name: 'Taubaté', uf: 'SP', ddd: '12', cep: [12000, 12119] },
  { name: 'Poços de Caldas', uf: 'MG', ddd: '35', cep: [37700, 37719] },
  { name: 'Uberlândia', uf: 'MG', ddd: '34', cep: [38400, 38415] },
  { name: 'Rio de Janeiro', uf: 'RJ', ddd: '21', cep: [20000, 23799] },
  { name: 'Niterói', uf: 'RJ', ddd: '21', cep: [24000, 24399] },
  { name: 'Curitiba', uf: 'PR', ddd: '41', cep: [80000, 82999] },
];

/** Cities around tenant 2's head office in Recife. */
// biome-ignore format: a word list reads better packed
export const CITIES_NORTHEAST: readonly City[] = [
  { name: 'Recife', uf: 'PE', ddd: '81', cep: [50000, 52999] },
  { name: 'Olinda', uf: 'PE', ddd: '81', cep: [53000, 53399] },
  { name: 'Jaboatão dos Guararapes', uf: 'PE', ddd: '81', cep: [54000, 54499] },
  { name: 'Paulista', uf: 'PE', ddd: '81', cep: [53400, 53499] },
  { name: 'Camaragibe', uf: 'PE', ddd: '81', cep: [54750, 54799] },
  { name: 'Caruaru', uf: 'PE', ddd: '81', cep: [55000, 55099] },
  { name: 'Vitória de Santo Antão', uf: 'PE', ddd: '81', cep: [55600, 55619] },
  { name: 'Petrolina', uf: 'PE', ddd: '87', cep: [56300, 56339] },
  { name: 'Garanhuns', uf: 'PE', ddd: '87', cep: [55290, 55299] },
  { name: 'João Pessoa', uf: 'PB', ddd: '83', cep: [58000, 58099] },
  { name: 'Campina Grande', uf: 'PB', ddd: '83', cep: [58400, 58449] },
  { name: 'Maceió', uf: 'AL', ddd: '82', cep: [57000, 57099] },
  { name: 'Arapiraca', uf: 'AL', ddd: '82', cep: [57300, 57319] },
  { name: 'Natal', uf: 'RN', ddd: '84', cep: [59000, 59139] },
  { name: 'Mossoró', uf: 'RN', ddd: '84', cep: [59600, 59649] },
  { name: 'Aracaju', uf: 'SE', ddd: '79', cep: [49000, 49099] },
  { name: 'Juazeiro do Norte', uf: 'CE', ddd: '88', cep: [63000, 63059] },
  { name: 'Fortaleza', uf: 'CE', ddd: '85', cep: [60000, 61599] },
  { name: 'Teresina', uf: 'PI', ddd: '86', cep: [64000, 64099] },
  { name: 'São Luís', uf: 'MA', ddd: '98', cep: [65000, 65109] },
];

export const EMAIL_PROVIDERS = ['gmail.com', 'hotmail.com', 'outlook.com', 'yahoo.com.br', 'uol.com.br', 'bol.com.br'];
